import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApprovalRequest } from '../../src/agent/loop/turn-options.ts';
import type { ApprovalMode } from '../../src/tools/approval-mode.ts';
import type { Choice } from '../../src/ui/input/line-reader-contract.ts';
import { printApproval, terminalApproval } from '../helpers/approval-policies.ts';
import type { ChoiceResult, LineReader, ReadResult } from '../../src/ui/input/line-reader-contract.ts';

/** A reader that answers from a script and records what it was asked. */
class ScriptedReader implements LineReader {
  readonly prompts: { prompt: string; remember?: boolean }[] = [];
  readonly history: readonly string[] = [];
  readonly interactive = true;
  constructor(private readonly script: ReadResult[]) {}
  async read(prompt: string, options?: { remember?: boolean }): Promise<ReadResult> {
    this.prompts.push({ prompt, remember: options?.remember });
    const next = this.script.shift();
    assert.ok(next, `the reader was asked more often than scripted: ${prompt}`);
    return next;
  }
  close(): void {}
}

const line = (text: string): ReadResult => ({ kind: 'line', line: text });
const writeRequest: ApprovalRequest = { toolCallId: 'call-1', toolName: 'write_file', input: { path: 'hello.txt', content: 'hi\n' } };
const signal = new AbortController().signal;

function approvalWith(script: ReadResult[], options: { yes?: boolean } = {}) {
  const reader = new ScriptedReader(script);
  const shown: { summary: string; preview: string }[] = [];
  let interrupts = 0;
  const described: ApprovalRequest[] = [];
  const approval = terminalApproval(
    {
      reader,
      show: (lines) => shown.push(lines),
      describe: async (request) => {
        described.push(request);
        return { summary: 'write_file hello.txt (1 line)', preview: '+ hi' };
      },
      onInterrupt: () => interrupts++,
    },
    { yes: options.yes ?? false },
  );
  return { approval, reader, shown, described, interrupts: () => interrupts };
}

describe('print mode approval', () => {
  test('without --yes, write_file is denied with a reason that mentions --yes', () => {
    const decision = printApproval(false).decide('write_file', {});
    assert.ok(typeof decision === 'object' && 'deny' in decision, JSON.stringify(decision));
    assert.match(decision.deny, /--yes/);
    assert.match(decision.deny, /write_file/);
  });

  test('with --yes, write_file is allowed', () => {
    assert.equal(printApproval(true).decide('write_file', {}), 'allow');
  });

  test('other tools need no approval either way', () => {
    for (const yes of [true, false]) {
      for (const toolName of ['read_file', 'get_weather', 'calculate', 'list_files']) {
        assert.equal(printApproval(yes).decide(toolName, {}), 'not-needed');
      }
    }
  });

  test('a key approved ahead matches exactly: domain:example.com does not approve example.com.evil.net', () => {
    const policy = printApproval(false, { approvedAhead: ['domain:example.com', 'command:npm test'] });
    assert.equal(policy.decide('web_fetch', { url: 'https://example.com/page' }), 'allow');
    assert.equal(policy.decide('run_command', { command: 'npm test' }), 'allow');
    for (const [toolName, input] of [
      ['web_fetch', { url: 'https://example.com.evil.net/page' }],
      ['web_fetch', { url: 'https://example.co/page' }],
      ['run_command', { command: 'npm test-publish' }],
    ] as const) {
      const decision = policy.decide(toolName, input);
      assert.ok(typeof decision === 'object' && /needs the user's approval/.test(decision.deny), `${JSON.stringify(input)}: ${JSON.stringify(decision)}`);
    }
  });

  test('asking is answered with a denial', async () => {
    assert.equal((await printApproval(false).ask(writeRequest, signal)).approved, false);
  });
});

describe('terminal approval.decide', () => {
  test('write_file is asked about; other tools are not', () => {
    const { approval } = approvalWith([]);
    assert.equal(approval.decide('write_file', {}), 'ask');
    assert.equal(approval.decide('read_file', {}), 'not-needed');
  });

  test('--yes allows without asking', () => {
    assert.equal(approvalWith([], { yes: true }).approval.decide('write_file', {}), 'allow');
  });
});

describe('terminal approval.ask', () => {
  for (const answer of ['y', 'yes', 'Y', ' YES ', '是', '好', 'ok']) {
    test(`"${answer}" approves`, async () => {
      const { approval } = approvalWith([line(answer)]);
      assert.deepEqual(await approval.ask(writeRequest), { approved: true });
      assert.equal(approval.decide('write_file', {}), 'ask', 'a single yes is not "always"');
    });
  }

  for (const answer of ['n', 'no', 'NO', '否', '不']) {
    test(`"${answer}" denies with a reason`, async () => {
      const { approval } = approvalWith([line(answer)]);
      const decision = await approval.ask(writeRequest);
      assert.equal(decision.approved, false);
      assert.match(decision.reason ?? '', /said no/);
    });
  }

  for (const answer of ['a', 'always', '总是']) {
    test(`"${answer}" approves, and later calls are allowed without asking`, async () => {
      const { approval } = approvalWith([line(answer)]);
      assert.deepEqual(await approval.ask(writeRequest), { approved: true });
      assert.equal(approval.decide('write_file', {}), 'allow');
      assert.deepEqual([...approval.always], ['write_file']);
    });
  }

  test('shows the description, then asks with the summary, without remembering the answer', async () => {
    const { approval, reader, shown, described } = approvalWith([line('y')]);
    await approval.ask(writeRequest);
    assert.deepEqual(described, [writeRequest]);
    assert.deepEqual(shown, [{ summary: 'write_file hello.txt (1 line)', preview: '+ hi' }]);
    assert.deepEqual(reader.prompts, [{ prompt: 'write_file hello.txt (1 line)? [y]es / [n]o / [a]lways this session › ', remember: false }]);
  });

  test('asks again after an answer it does not understand', async () => {
    const { approval, reader, shown } = approvalWith([line('maybe'), line(''), line('yes please'), line('n')]);
    const decision = await approval.ask(writeRequest);
    assert.equal(decision.approved, false);
    assert.equal(reader.prompts.length, 4);
    assert.equal(shown.length, 1, 'the preview is shown once');
  });

  test('the end of input denies', async () => {
    const { approval, interrupts } = approvalWith([{ kind: 'eof' }]);
    const decision = await approval.ask(writeRequest);
    assert.equal(decision.approved, false);
    assert.ok(decision.reason);
    assert.equal(interrupts(), 0);
  });

  test('Ctrl-C calls onInterrupt and denies', async () => {
    const { approval, interrupts } = approvalWith([{ kind: 'interrupt', hadText: false }]);
    const decision = await approval.ask(writeRequest);
    assert.equal(decision.approved, false);
    assert.match(decision.reason ?? '', /interrupted/);
    assert.equal(interrupts(), 1);
    assert.equal(approval.decide('write_file', {}), 'ask');
  });

  test('interrupted while the preview is prepared: nothing is shown and nothing is asked, on a line reader or a menu', async () => {
    for (const reader of [new ScriptedReader([]), new MenuReader([])]) {
      const controller = new AbortController();
      const shown: unknown[] = [];
      const approval = terminalApproval({
        reader,
        show: (lines) => shown.push(lines),
        // A slow read of the file to preview: the user presses Ctrl-C before it is done.
        describe: async () => {
          controller.abort();
          return { summary: 'write_file hello.txt (1 line)', preview: '+ hi' };
        },
        onInterrupt: () => {},
      });
      // The turn has already ended; were the question asked now, the user's next message would answer it.
      const decision = await approval.ask(writeRequest, controller.signal);
      assert.equal(decision.approved, false);
      assert.deepEqual(shown, [], 'no preview shown');
      assert.deepEqual(reader.prompts, [], 'no question read');
      if (reader instanceof MenuReader) assert.deepEqual(reader.menus, [], 'no menu shown');
    }
  });
});

/** A terminal reader: a one-key menu, scripted, then lines (the reason). */
class MenuReader extends ScriptedReader {
  readonly menus: { question: string; choices: readonly Choice[] }[] = [];
  constructor(
    private readonly picks: ChoiceResult[],
    lines: ReadResult[] = [],
  ) {
    super(lines);
  }
  async choose(question: string, choices: readonly Choice[]): Promise<ChoiceResult> {
    this.menus.push({ question, choices });
    const next = this.picks.shift();
    assert.ok(next, `the menu was shown more often than scripted: ${question}`);
    return next;
  }
}

const pick = (key: string): ChoiceResult => ({ kind: 'choice', key });
const commandRequest: ApprovalRequest = { toolCallId: 'call-3', toolName: 'run_command', input: { command: 'npm test' } };

function menuApproval(picks: ChoiceResult[], lines: ReadResult[] = [], mode: ApprovalMode = 'ask') {
  const reader = new MenuReader(picks, lines);
  let current = mode;
  const approval = terminalApproval(
    { reader, show: () => {}, describe: async (request) => ({ summary: `${request.toolName} …`, preview: '' }), onInterrupt: () => {} },
    { modes: { mode: () => current, workspaceRoot: '/work/space' } },
  );
  return { approval, reader, setMode: (next: ApprovalMode) => (current = next) };
}

describe('terminal approval on a terminal: the one-key menu', () => {
  test('the menu offers yes, always (with its scope), no, and no-and-tell-why', async () => {
    const { approval, reader } = menuApproval([pick('y')]);
    assert.deepEqual(await approval.ask(commandRequest), { approved: true });
    assert.equal(reader.menus[0]?.question, 'run_command …?');
    assert.deepEqual(
      reader.menus[0]?.choices.map((choice) => `${choice.key} ${choice.label}`),
      ['y Yes', 'a Yes, and always `npm test …` this session', 'n No', 't No, and tell it why'],
    );
    assert.equal(reader.prompts.length, 0, 'no line was read: the key alone answered');
  });

  test('a compound command offers no "always"', async () => {
    const { approval, reader } = menuApproval([pick('n')]);
    await approval.ask({ ...commandRequest, input: { command: 'npm test && rm -rf x' } });
    assert.deepEqual(reader.menus[0]?.choices.map((choice) => choice.key), ['y', 'n', 't']);
  });

  test('"a" approves and remembers the scope', async () => {
    const { approval } = menuApproval([pick('a')]);
    assert.deepEqual(await approval.ask(commandRequest), { approved: true });
    assert.equal(approval.decide('run_command', { command: 'npm test --coverage' }), 'allow');
    assert.equal(approval.decide('run_command', { command: 'npm publish' }), 'ask');
  });

  test('"t" reads a reason, and the denial the model reads carries it', async () => {
    const { approval, reader } = menuApproval([pick('t')], [line('use pnpm, not npm')]);
    const decision = await approval.ask(commandRequest);
    assert.equal(decision.approved, false);
    assert.match(decision.reason ?? '', /said no[\s\S]*use pnpm, not npm/);
    assert.equal(reader.prompts[0]?.remember, false);
  });

  test('"t" with an empty reason is a plain no; Esc is a no', async () => {
    const empty = menuApproval([pick('t')], [line('  ')]);
    assert.match((await empty.approval.ask(commandRequest)).reason ?? '', /^The user said no to this call; nothing was changed\. Ask them/);
    const escaped = menuApproval([{ kind: 'escape' }]);
    const decision = await escaped.approval.ask(commandRequest);
    assert.equal(decision.approved, false);
    assert.match(decision.reason ?? '', /said no/);
  });
});

describe('terminal approval: modes', () => {
  test('auto-edit allows writes and edits inside the workspace, still asks for commands, fetches and edits that lead out', () => {
    const { approval } = menuApproval([], [], 'auto-edit');
    assert.equal(approval.decide('edit_file', { path: 'src/app.ts' }), 'allow');
    assert.equal(approval.decide('write_file', { path: '/work/space/notes.md', content: '' }), 'allow');
    assert.equal(approval.decide('edit_file', { path: '../elsewhere/app.ts' }), 'ask');
    assert.equal(approval.decide('write_file', { path: '/etc/passwd', content: '' }), 'ask');
    assert.equal(approval.decide('run_command', { command: 'ls' }), 'ask');
    assert.equal(approval.decide('web_fetch', { url: 'https://example.com/' }), 'ask');
  });

  test('plan refuses writes, edits, commands and MCP tools without asking, with a result that names plan mode; reading needs nothing', () => {
    const { approval } = menuApproval([], [], 'plan');
    for (const toolName of ['write_file', 'edit_file', 'run_command', 'files__write']) {
      const decision = approval.decide(toolName, { path: 'a.txt', command: 'ls' });
      assert.ok(typeof decision === 'object' && /plan mode/.test(decision.deny), `${toolName}: ${JSON.stringify(decision)}`);
    }
    assert.equal(approval.decide('read_file', { path: 'a.txt' }), 'not-needed');
    assert.equal(approval.decide('web_fetch', { url: 'https://example.com/' }), 'ask');
  });

  test('a switch applies from the next decision on', () => {
    const { approval, setMode } = menuApproval([], [], 'plan');
    assert.equal(typeof approval.decide('edit_file', { path: 'a.txt' }), 'object');
    setMode('auto-edit');
    assert.equal(approval.decide('edit_file', { path: 'a.txt' }), 'allow');
    setMode('ask');
    assert.equal(approval.decide('edit_file', { path: 'a.txt' }), 'ask');
  });

  test('print mode: plan refuses even with --yes; auto-edit applies edits without --yes but not commands', () => {
    const plan = printApproval(true, { modes: { mode: () => 'plan', workspaceRoot: '/w' } });
    assert.equal(typeof plan.decide('write_file', { path: 'a', content: '' }), 'object');
    const autoEdit = printApproval(false, { modes: { mode: () => 'auto-edit', workspaceRoot: '/w' } });
    assert.equal(autoEdit.decide('edit_file', { path: 'a' }), 'allow');
    assert.match(JSON.stringify(autoEdit.decide('run_command', { command: 'ls' })), /--yes/);
  });
});
