import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AgentEvent } from '../../src/agent/loop/events.ts';
import { emptyUsage } from '../../src/shared/token-usage.ts';
import { TerminalRenderer, type ThinkingDisplay } from '../../src/ui/render/terminal-renderer.ts';
import { screenAfter } from '../helpers/screen-model.ts';

class FakeTerminal {
  readonly isTTY = true;
  constructor(
    readonly columns = 80,
    readonly rows = 24,
  ) {}
  bytes = '';
  write(text: string): boolean {
    this.bytes += text;
    return true;
  }
  get screen(): string {
    return screenAfter(this.bytes).join('\n');
  }
}

function setup(thinking: ThinkingDisplay = 'whole', terminal = new FakeTerminal()) {
  let clock = 1_000;
  // A frame for each chunk (frameMs 0): these tests look at the screen after each one.
  const renderer = new TerminalRenderer(terminal, { now: () => clock, thinking: () => thinking, environment: { NO_COLOR: '1', TERM: 'xterm' }, frameMs: 0 });
  return {
    terminal,
    renderer,
    advance: (ms: number) => (clock += ms),
    render: async (...events: AgentEvent[]) => {
      for (const event of events) await renderer.render(event);
    },
  };
}

const turnEnd: AgentEvent = { type: 'turn-end', stopReason: 'completed', usage: emptyUsage(), steps: 1 };
const call = (id: string, toolName: string, input: unknown): AgentEvent => ({ type: 'tool-call', toolCallId: id, toolName, input });

describe('TerminalRenderer', { timeout: 10_000 }, () => {
  it('names the approval mode on the status line when it is not the default', async () => {
    const terminal = new FakeTerminal();
    let mode: string | undefined = 'plan mode';
    const renderer = new TerminalRenderer(terminal, { now: () => 1_000, statusTag: () => mode, environment: { NO_COLOR: '1', TERM: 'xterm' } });
    renderer.begin();
    assert.equal(terminal.screen, '⠋ Waiting for the model… (0s · esc to cancel · plan mode)');
    mode = undefined;
    await renderer.render({ type: 'step-start', step: 1 });
    renderer.resume();
    assert.equal(terminal.screen, '⠋ Waiting for the model… (0s · esc to cancel)');
    renderer.close();
  });

  it('shows a status line until the first token, then erases it', async () => {
    const { terminal, renderer, render, advance } = setup();
    renderer.begin();
    advance(3_000);
    await render({ type: 'step-start', step: 1 });
    renderer.resume();
    assert.match(terminal.screen, /^⠋ Waiting for the model… \(3s · esc to cancel\)$/);
    await render({ type: 'text-delta', text: 'Hello.' });
    assert.equal(terminal.screen, 'Hello.');
    await render(turnEnd);
    assert.equal(terminal.screen, 'Hello.\n');
  });

  it('shows a running call with its live output, then one ✓ line with the duration and the result dimmed', async () => {
    const { terminal, render, advance } = setup();
    await render(call('c1', 'run_command', { command: 'make' }));
    await render({ type: 'tool-progress', toolCallId: 'c1', toolName: 'run_command', text: 'step 1\nstep 2\nstep 3\nstep 4\nstep 5\n' });
    advance(1_500);
    // Each report is the command's latest lines as a whole: shown in place of the last, never added to it.
    await render({ type: 'tool-progress', toolCallId: 'c1', toolName: 'run_command', text: 'step 4\nstep 5\nstep \u001b[2J6' });
    assert.deepEqual(terminal.screen.split('\n'), [
      '⠋ run_command(command: "make") (1s · esc to cancel)',
      '  step 4',
      '  step 5',
      '  step ␛[2J6',
    ]);
    await render({ type: 'tool-progress', toolCallId: 'c1', toolName: 'run_command', text: '\n 10%\r 50%\r100%\r\n' });
    assert.equal(terminal.screen.split('\n').at(-1), '  100%', 'a progress bar redrawn with \\r shows its last state');
    await render({ type: 'tool-result', toolCallId: 'c1', toolName: 'run_command', output: 'built\nok' });
    await render({ type: 'text-delta', text: 'Done.' }, turnEnd);
    assert.equal(terminal.screen, '✓ run_command(command: "make") · 1.5s\n  ⎿ built (+1 line)\n\nDone.\n');
  });

  it('shows the block in progress below the finished ones, and replaces it once it is complete', async () => {
    const { terminal, render } = setup();
    await render({ type: 'text-delta', text: '# Title\n\n```sh\n' });
    for (let line = 1; line <= 30; line += 1) await render({ type: 'text-delta', text: `echo ${line}\n` });
    const during = terminal.screen.split('\n');
    assert.equal(during[0], '# Title', 'the finished heading');
    assert.ok(during.length <= 14, `only the last rows of a long block in progress are live:\n${during.join('\n')}`);
    assert.equal(during.at(-1), '│ echo 30', 'an open code block in its frame');
    await render({ type: 'text-delta', text: '```\nAfter.' }, turnEnd);
    const lines = terminal.screen.split('\n');
    assert.deepEqual(lines.slice(0, 4), ['# Title', '', '╭─ sh', '│ echo 1']);
    assert.equal(lines.filter((line) => line.includes('echo 30')).length, 1, 'nothing drawn twice');
    assert.deepEqual(lines.slice(-4), ['│ echo 30', '╰─', 'After.', '']);
  });

  it('keeps the indentation of a code block and of plain lines while they stream, in the frame the finished block gets', async () => {
    const { terminal, render } = setup();
    await render({ type: 'text-delta', text: 'Code:\n\n```python\ndef f(x):\n    if x:\n        return 1\n' });
    assert.deepEqual(terminal.screen.split('\n'), ['Code:', '', '╭─ python', '│ def f(x):', '│     if x:', '│         return 1']);
    await render({ type: 'text-delta', text: '\treturn 2' });
    assert.equal(terminal.screen.split('\n').at(-1), '│     return 2', 'a tab is four spaces, and the line being written keeps them');
    await render({ type: 'text-delta', text: '\n```\n\n- a\n  - nested\n' });
    assert.deepEqual(terminal.screen.split('\n').slice(-3), ['- a', '  - nested', ''], 'a nested list line keeps its indentation while the list is open');
    await render(turnEnd);
    const finished = terminal.screen.split('\n');
    assert.deepEqual(finished.slice(2, 8), ['╭─ python', '│ def f(x):', '│     if x:', '│         return 1', '│     return 2', '╰─']);
  });

  it('a pseudo-terminal that never had a size (0 columns, 0 rows) is treated as 80×24', async () => {
    const { terminal, renderer, render } = setup('whole', new FakeTerminal(0, 0));
    renderer.begin();
    assert.equal(terminal.screen, '⠋ Waiting for the model… (0s · esc to cancel)');
    await render({ type: 'text-delta', text: 'Let me think about that at great' });
    assert.equal(terminal.screen, 'Let me think about that at great');
  });

  it('marks a failed or denied call with ✗', async () => {
    const { terminal, render } = setup();
    await render(call('c1', 'read_file', { path: 'x' }), { type: 'tool-error', toolCallId: 'c1', toolName: 'read_file', error: 'no such file' });
    await render(call('c2', 'write_file', { path: 'y' }), { type: 'tool-denied', toolCallId: 'c2', toolName: 'write_file', reason: 'The user said no.' });
    await render(turnEnd);
    assert.equal(
      terminal.screen,
      '✗ read_file(path: "x") · 0.0s\n  ⎿ no such file\n✗ write_file(path: "y") · 0.0s\n  ⎿ denied: The user said no.\n',
    );
  });

  it('shows reasoning marked and apart from the answer, whole or as one line', async () => {
    const whole = setup('whole');
    await whole.render({ type: 'reasoning-delta', text: 'Let me think\nabout it' });
    whole.advance(2_000);
    await whole.render({ type: 'text-delta', text: 'Answer.' }, turnEnd);
    assert.equal(whole.terminal.screen, '✻ thinking\n┊ Let me think\n┊ about it\n✻ thought for 2.0s\n\nAnswer.\n');

    const summary = setup('summary');
    await summary.render({ type: 'reasoning-delta', text: 'Let me think\nabout it' });
    assert.match(summary.terminal.screen, /^⠋ Thinking… \(0s · esc to cancel\)$/);
    summary.advance(6_000);
    await summary.render({ type: 'text-delta', text: 'Answer.' }, turnEnd);
    assert.equal(summary.terminal.screen, '✻ thought for 6.0s\n\nAnswer.\n');
  });

  it('sanitises the answer, tool names and inputs, notices and the stop line', async () => {
    const { terminal, render } = setup();
    await render({ type: 'text-delta', text: 'a\u001b]52;c;eA==\u0007b\n\n' });
    await render(call('c1', 'evil\u001b[2J', { path: 'x\u009b' }), { type: 'tool-result', toolCallId: 'c1', toolName: 'evil', output: 'o\u001b]0;t\u0007' });
    await render({ type: 'notice', message: 'n\u001b[H' });
    await render({ type: 'turn-end', stopReason: 'error', usage: emptyUsage(), steps: 1, message: 'server said \u001b[31mno' });
    assert.equal(terminal.bytes.includes('\u0007'), false);
    assert.doesNotMatch(terminal.bytes, /\u001b\](52|0);|\u001b\[2J|\u001b\[H|\u001b\[31m|\u009b/);
    assert.match(terminal.screen, /a␛\]52;c;eA==␇b/);
    assert.match(terminal.screen, /evil␛\[2J\(path: "x<U\+009B>"\)/);
    assert.match(terminal.screen, /✗ server said ␛\[31mno/);
  });

  it('says what is under way while the conversation is compacted', async () => {
    const { terminal, render } = setup();
    await render({ type: 'notice', message: '(the conversation is near the context limit: summarising older turns…)' });
    const [notice, status] = terminal.screen.split('\n');
    assert.equal(notice, '(the conversation is near the context limit: summarising older turns…)');
    // Cut to fit one row of 80 columns.
    assert.equal(status, '⠋ the conversation is near the context limit: summarising… (0s · esc to cancel)');
  });
});

describe('TerminalRenderer: the status line never outlives its turn', { timeout: 10_000 }, () => {
  const spinner = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
  const write = call('w1', 'write_file', { path: 'a.txt', content: 'x' });
  const stopped: AgentEvent = { type: 'turn-end', stopReason: 'aborted', message: 'Interrupted.', usage: emptyUsage(), steps: 1 };

  it('an approval that settles after its turn was stopped does not start it again', async () => {
    const { terminal, renderer, render } = setup();
    renderer.begin();
    await render(write);
    renderer.suspend();
    // Esc while the question was being prepared: the turn ends before the approval does.
    await render(stopped);
    renderer.close();
    const closedAt = terminal.bytes.length;
    renderer.resume();
    assert.doesNotMatch(terminal.bytes.slice(closedAt), spinner, 'a spinner frame drawn after the turn ended');
    assert.equal(terminal.screen, '■ Interrupted.\n');
  });

  it('a notice after turn-end is printed without a status line', async () => {
    const { terminal, render } = setup();
    await render({ type: 'text-delta', text: 'Done.' }, turnEnd);
    const endedAt = terminal.bytes.length;
    await render({ type: 'notice', message: '(sessions are not being saved: disk full)' });
    assert.doesNotMatch(terminal.bytes.slice(endedAt), spinner);
    assert.doesNotMatch(terminal.screen, /Waiting for the model/);
  });

  it('nothing draws a spinner while an approval question is asked', async () => {
    const { terminal, renderer, render } = setup();
    renderer.begin();
    await render(write);
    renderer.suspend();
    const askedAt = terminal.bytes.length;
    await render({ type: 'tool-progress', toolCallId: 'w1', toolName: 'write_file', text: 'late output\n' });
    await render({ type: 'notice', message: '(an MCP server said something)' });
    assert.doesNotMatch(terminal.bytes.slice(askedAt), spinner, 'a spinner frame drawn over the question');
    renderer.resume();
    assert.match(terminal.screen, /^⠋ write_file/m, 'the status line back once the question was answered');
    renderer.close();
  });
});

describe('TerminalRenderer: what a tool showed stays readable', { timeout: 10_000 }, () => {
  const aborted: AgentEvent = { type: 'turn-end', stopReason: 'aborted', usage: emptyUsage(), steps: 1, message: 'Interrupted.' };

  it('a command stopped by the user keeps the lines it was showing, then how long it ran', async () => {
    const { terminal, render, advance } = setup();
    await render(call('c1', 'run_command', { command: 'make' }));
    await render({ type: 'tool-progress', toolCallId: 'c1', toolName: 'run_command', text: 'tick 1\ntick 2\ntick 3\ntick 4\ntick 5' });
    advance(5_000);
    await render({ type: 'tool-error', toolCallId: 'c1', toolName: 'run_command', error: 'This operation was aborted', stopped: 'interrupted' }, aborted);
    assert.equal(
      terminal.screen,
      '✗ run_command(command: "make") · 5.0s\n  │ tick 2\n  │ tick 3\n  │ tick 4\n  │ tick 5\n  ⎿ interrupted after 5.0 s\n■ Interrupted.\n',
    );
  });

  it('a call the stopped turn never answered (running while another asked) ends on screen too', async () => {
    const { terminal, render, advance } = setup();
    await render(call('c1', 'run_command', { command: 'sleep 9' }));
    await render({ type: 'tool-progress', toolCallId: 'c1', toolName: 'run_command', text: 'waiting' });
    advance(2_000);
    await render(aborted);
    assert.equal(terminal.screen, '✗ run_command(command: "sleep 9") · 2.0s\n  │ waiting\n  ⎿ interrupted after 2.0 s\n■ Interrupted.\n');
  });

  it('a result longer than the screen is saved, and its path is shown under it', async () => {
    const saved: { name: string; text: string }[] = [];
    const terminal = new FakeTerminal(80, 24);
    const renderer = new TerminalRenderer(terminal, {
      environment: { NO_COLOR: '1', TERM: 'xterm' },
      expandable: true,
      saveOutput: async (record, text) => {
        saved.push({ name: record.toolName, text });
        return `/home/.sylvan/sessions/s1/tool-output/${record.toolName}-${record.toolCallId}.txt`;
      },
    });
    const long = Array.from({ length: 30 }, (_, index) => `row ${index}`).join('\n');
    await renderer.render(call('c1', 'read_file', { path: 'big.txt' }));
    await renderer.render({ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: long });
    await renderer.render(call('c2', 'read_file', { path: 'small.txt' }));
    await renderer.render({ type: 'tool-result', toolCallId: 'c2', toolName: 'read_file', output: 'one\ntwo' });
    await renderer.render(turnEnd);
    assert.deepEqual(saved, [{ name: 'read_file', text: long }], 'only the long one is saved, whole');
    assert.deepEqual(terminal.screen.split('\n').slice(0, 5), [
      '✓ read_file(path: "big.txt") · 0.0s',
      '  ⎿ row 0 (+29 lines, ctrl+o to expand)',
      '    full output: /home/.sylvan/sessions/s1/tool-output/read_file-c1.txt',
      '✓ read_file(path: "small.txt") · 0.0s',
      '  ⎿ one (+1 line, ctrl+o to expand)',
    ]);
  });

  it('a result that could not be saved says so in one line', async () => {
    const terminal = new FakeTerminal(80, 24);
    const renderer = new TerminalRenderer(terminal, {
      environment: { NO_COLOR: '1', TERM: 'xterm' },
      saveOutput: async () => {
        throw new Error('the full output could not be saved (the disk is full)');
      },
    });
    await renderer.render(call('c1', 'read_file', { path: 'big.txt' }));
    await renderer.render({ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: 'row\n'.repeat(40) });
    await renderer.render(turnEnd);
    assert.equal(terminal.screen.split('\n')[2], '    (the full output could not be saved (the disk is full); /last prints it)');
  });

  it('Ctrl+O during the turn shows the latest finished result whole above the status line, and hides it again', async () => {
    const { terminal, renderer, render } = setup();
    await render(call('c1', 'search_files', { pattern: 'hello' }));
    const matches = Array.from({ length: 8 }, (_, index) => `f${index}.txt:1: hello`);
    await render({ type: 'tool-result', toolCallId: 'c1', toolName: 'search_files', output: `8 matches for /hello/ in the workspace:\n${matches.join('\n')}` });
    await render(call('c2', 'run_command', { command: 'make' }));
    assert.doesNotMatch(terminal.screen, /f7\.txt/, 'collapsed, the last matches are hidden');
    renderer.toggleExpanded();
    const expanded = terminal.screen.split('\n');
    assert.ok(expanded.includes('  f7.txt:1: hello'), expanded.join('\n'));
    assert.match(expanded.at(-1) ?? '', /^⠋ run_command\(command: "make"\)/, 'the status line stays last');
    renderer.toggleExpanded();
    assert.doesNotMatch(terminal.screen, /f7\.txt/);
    renderer.close();
  });
});
