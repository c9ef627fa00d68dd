import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type AgentEvent, type StopReason } from '../../src/agent/loop/events.ts';
import { emptyUsage } from '../../src/shared/token-usage.ts';
import { chalkFor, EventRenderer, formatUsage, summariseResult, type Output } from '../../src/ui/render/render.ts';
import { formatCall, oneLine } from '../../src/shared/text/call-text.ts';

/** An Output that keeps what was written. */
class Buffer implements Output {
  readonly chunks: string[] = [];
  constructor(
    readonly isTTY = false,
    readonly columns?: number,
  ) {}
  write(text: string): boolean {
    this.chunks.push(text);
    return true;
  }
  get text(): string {
    return this.chunks.join('');
  }
}

// The test runner sets FORCE_COLOR=1 for its children when it runs in a terminal; the renderer reads process.env.
const savedEnvironment = { FORCE_COLOR: process.env.FORCE_COLOR, NO_COLOR: process.env.NO_COLOR, TERM: process.env.TERM };
before(() => {
  delete process.env.FORCE_COLOR;
  delete process.env.NO_COLOR;
  process.env.TERM = 'xterm-256color';
});
after(() => {
  for (const [key, value] of Object.entries(savedEnvironment)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

const ANSI = /\u001b\[/;
const turnEnd = (stopReason: StopReason, message?: string): AgentEvent => ({
  type: 'turn-end',
  stopReason,
  usage: emptyUsage(),
  steps: 1,
  message,
});
const call = (toolName: string, input: unknown): AgentEvent => ({ type: 'tool-call', toolCallId: 'c1', toolName, input });
const result = (output: unknown): AgentEvent => ({ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output });

/** The REPL's setup: text and activity on one stream. */
function renderShared(events: AgentEvent[], output = new Buffer()): string {
  const renderer = new EventRenderer(output, output);
  for (const event of events) renderer.render(event);
  return output.text;
}

/** Display columns in a terminal: wide East Asian characters take two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) width += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(character) ? 2 : 1;
  return width;
}

describe('EventRenderer in the REPL (one stream)', () => {
  test('text deltas stream contiguously, and the turn ends the line', () => {
    const text = renderShared([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo, ' },
      { type: 'text-delta', text: '世界' },
      turnEnd('completed'),
    ]);
    assert.equal(text, 'Hello, 世界\n');
  });

  test('a tool call after text starts on a new line', () => {
    const text = renderShared([{ type: 'text-delta', text: 'Let me check.' }, call('get_weather', { city: '北京' })]);
    assert.equal(text, 'Let me check.\n⏺ get_weather(city: "北京")\n');
  });

  test('a tool call after a finished line adds no blank line', () => {
    const text = renderShared([{ type: 'text-delta', text: 'Checking.\n' }, call('current_time', {})]);
    assert.equal(text, 'Checking.\n⏺ current_time()\n');
  });

  test('text after a tool result starts on its own line', () => {
    const text = renderShared([call('calculate', { expression: '(2+3)*4' }), result('(2+3)*4 = 20'), { type: 'text-delta', text: '= 20' }, turnEnd('completed')]);
    assert.equal(text, '⏺ calculate(expression: "(2+3)*4")\n  ⎿ (2+3)*4 = 20\n= 20\n');
  });

  test('a tool result shows only its first line and how many more', () => {
    const text = renderShared([result('package.json: lines 1-3 of 3\n1 {\n\n2   "name": "sylvan"\n3 }\n')]);
    assert.equal(text, '  ⎿ package.json: lines 1-3 of 3 (+3 lines)\n');
    assert.doesNotMatch(text, /sylvan/);
  });

  test('a one-line result has no count; a non-string result is shown as JSON', () => {
    assert.equal(renderShared([result('Beijing: 21°C')]), '  ⎿ Beijing: 21°C\n');
    assert.equal(renderShared([result({ temperature: 21 })]), '  ⎿ {"temperature":21}\n');
  });

  test('a tool error is one line with its message', () => {
    const text = renderShared([{ type: 'tool-error', toolCallId: 'c1', toolName: 'read_file', error: 'path ../x is outside the workspace;\nuse a path inside it' }]);
    assert.equal(text, '  ⎿ ✗ path ../x is outside the workspace; use a path inside it\n');
  });

  test('a call that was ended says how, not what its error told the model', () => {
    const ended = (stopped: 'interrupted' | 'timed-out') =>
      renderShared([{ type: 'tool-error', toolCallId: 'c1', toolName: 'run_command', error: 'run_command did not finish within 615 s. Tell the user.', stopped }]);
    assert.equal(ended('interrupted'), '  ⎿ ✗ interrupted\n');
    assert.equal(ended('timed-out'), '  ⎿ ✗ timed out\n');
  });

  test('a denied call shows the reason, or just "denied"', () => {
    assert.equal(
      renderShared([{ type: 'tool-denied', toolCallId: 'c1', toolName: 'write_file', reason: 'The user said no.' }]),
      '  ⎿ denied: The user said no.\n',
    );
    assert.equal(renderShared([{ type: 'tool-denied', toolCallId: 'c1', toolName: 'write_file' }]), '  ⎿ denied\n');
  });

  test('a turn that did not complete ends with one line carrying its message', () => {
    const stopped = renderShared([{ type: 'text-delta', text: 'Partial answer' }, turnEnd('max-steps', 'Stopped after 10 model requests.')]);
    assert.equal(stopped, 'Partial answer\n■ Stopped after 10 model requests.\n');
    assert.equal(renderShared([turnEnd('error', 'DashScope rejected the API key (401).')]), '✗ DashScope rejected the API key (401).\n');
    assert.equal(renderShared([turnEnd('aborted', 'Interrupted.')]), '■ Interrupted.\n');
  });

  test('a completed turn prints no stop line, even with a message', () => {
    assert.equal(renderShared([{ type: 'text-delta', text: 'Done.' }, turnEnd('completed', 'ignored')]), 'Done.\n');
    assert.equal(renderShared([turnEnd('timeout')]), '');
  });

  test('a notice after text is a line of its own', () => {
    assert.equal(renderShared([{ type: 'text-delta', text: 'a' }, { type: 'notice', message: '(context trimmed)' }]), 'a\n(context trimmed)\n');
  });

  test('step events print nothing', () => {
    assert.equal(
      renderShared([{ type: 'step-start', step: 1 }, { type: 'step-end', step: 1, usage: emptyUsage(), finishReason: 'stop' }]),
      '',
    );
  });

  test('the tool-result line fits the terminal width', () => {
    const output = new Buffer(false, 60);
    const text = renderShared([result('x'.repeat(500))], output);
    const line = text.replace(/\n$/, '');
    assert.ok(line.length <= 60, `${line.length} columns`);
    assert.ok(line.endsWith('…'));
  });

  test(
    'a CJK tool result fits the terminal width in columns',
    () => {
      const output = new Buffer(false, 80);
      const line = renderShared([result('北京'.repeat(200))], output).replace(/\n$/, '');
      assert.ok(displayWidth(line) <= 80, `${displayWidth(line)} columns`);
    },
  );

  test('no ANSI codes when the output is not a terminal; colour when it is', () => {
    const events: AgentEvent[] = [
      { type: 'text-delta', text: 'hi' },
      call('calculate', { expression: '1+1' }),
      result('1+1 = 2'),
      { type: 'tool-error', toolCallId: 'c1', toolName: 'x', error: 'bad' },
      turnEnd('error', 'failed'),
    ];
    assert.doesNotMatch(renderShared(events, new Buffer(false)), ANSI);
    assert.match(renderShared(events, new Buffer(true)), ANSI);
  });

  test('dimLine writes a line on the activity stream', () => {
    const output = new Buffer();
    const renderer = new EventRenderer(output, output);
    renderer.render({ type: 'text-delta', text: 'answer' });
    renderer.dimLine('· 10 in · 2 out');
    assert.equal(output.text, 'answer\n· 10 in · 2 out\n');
  });
});

describe('EventRenderer keeps the terminal safe', () => {
  test('escapes in answer text, reasoning, tool names, inputs, results, errors and notices are shown, never written', () => {
    const hostile = 'x\u001b]52;c;ZXZpbA==\u0007\u001b]0;t\u0007\u001b[2J\u009b\u202e';
    const text = renderShared([
      { type: 'reasoning-delta', text: `r${hostile}\n` },
      { type: 'text-delta', text: `a${hostile}` },
      { type: 'tool-call', toolCallId: 'c1', toolName: `n${hostile}`, input: { [`k${hostile}`]: `v${hostile}` } },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: `o${hostile}` },
      { type: 'tool-error', toolCallId: 'c2', toolName: 'read_file', error: `e${hostile}` },
      { type: 'notice', message: `m${hostile}` },
      turnEnd('error', `s${hostile}`),
    ]);
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/, JSON.stringify(text));
    for (const prefix of ['r', 'a', 'n', 'k', 'o', 'e', 'm', 's']) assert.ok(text.includes(`${prefix}x␛]52;c;ZXZpbA==␇`), `${prefix}: ${text}`);
  });
});

describe('EventRenderer in print mode (two streams)', () => {
  function renderSplit(events: AgentEvent[]) {
    const stdout = new Buffer();
    const stderr = new Buffer();
    const renderer = new EventRenderer(stdout, stderr);
    for (const event of events) renderer.render(event);
    return { stdout: stdout.text, stderr: stderr.text, renderer };
  }

  test('answer text goes to one stream, tool activity and the stop line to the other', () => {
    const { stdout, stderr } = renderSplit([
      call('get_weather', { city: 'Paris' }),
      result('Paris: 18°C\nmore'),
      { type: 'text-delta', text: 'It is ' },
      { type: 'text-delta', text: '18°C.' },
      turnEnd('token-budget', 'Stopped: token budget.'),
    ]);
    assert.equal(stdout, 'It is 18°C.\n');
    assert.equal(stderr, '⏺ get_weather(city: "Paris")\n  ⎿ Paris: 18°C (+1 line)\n■ Stopped: token budget.\n');
  });

  test('activity does not break the answer stream', () => {
    const { stdout } = renderSplit([{ type: 'text-delta', text: 'abc' }, { type: 'notice', message: 'note' }, { type: 'text-delta', text: 'def' }]);
    assert.equal(stdout.startsWith('abc'), true);
    assert.doesNotMatch(stdout, /note/);
  });

  test('a retry is one dimmed line on a terminal\'s stderr, and nothing on a pipe (its reader gets the answer or the one error line)', () => {
    const retry: AgentEvent = { type: 'retry', attempt: 1, maxRetries: 3, delayMs: 2_000, reason: 'rate-limited', status: 429 };
    const stdout = new Buffer();
    const terminal = new Buffer(true);
    new EventRenderer(stdout, terminal).render(retry);
    assert.equal(terminal.text.replace(/\u001b\[[0-9;]*m/g, ''), 'rate limited (429) · retrying (1/3) in 2 s\n');
    assert.equal(stdout.text, '');
    const { stderr } = renderSplit([retry, { type: 'text-delta', text: 'ok' }]);
    assert.equal(stderr, '');
  });

  test('no text written: stdout stays empty', () => {
    const { stdout } = renderSplit([call('current_time', {}), turnEnd('error', 'boom')]);
    assert.equal(stdout, '');
  });

  test(
    'text before and after a tool call is not run together on stdout',
    () => {
      const { stdout } = renderSplit([
        { type: 'text-delta', text: 'Let me check.' },
        call('get_weather', { city: 'Paris' }),
        result('Paris: sunny'),
        { type: 'text-delta', text: 'It is sunny.' },
        turnEnd('completed'),
      ]);
      assert.equal(stdout, 'Let me check.\nIt is sunny.\n');
    },
  );

  test(
    'reasoning stays out of the answer on stdout',
    () => {
      const { stdout } = renderSplit([
        { type: 'reasoning-delta', text: 'The user wants a sum.' },
        { type: 'text-delta', text: '4' },
        turnEnd('completed'),
      ]);
      assert.equal(stdout, '4\n');
    },
  );
});

describe('reasoning in the REPL', () => {
  test(
    'the answer starts on a new line after the reasoning',
    () => {
      const text = renderShared([{ type: 'reasoning-delta', text: 'The user wants a sum.' }, { type: 'text-delta', text: '4' }, turnEnd('completed')]);
      assert.equal(text, 'The user wants a sum.\n4\n');
    },
  );
});

describe('oneLine', () => {
  test('squeezes whitespace to one line', () => {
    assert.equal(oneLine('  a\n\tb   c \n'), 'a b c');
  });

  test('cuts long text to the width, ending in an ellipsis', () => {
    const cut = oneLine('x'.repeat(300), 50);
    assert.equal(Array.from(cut).length, 50);
    assert.ok(cut.endsWith('…'));
    assert.equal(oneLine('x'.repeat(50), 50), 'x'.repeat(50));
  });

  test('never splits a character made of two UTF-16 units, and counts an emoji as two columns', () => {
    const cut = oneLine('😀'.repeat(20), 10);
    assert.equal(cut, `${'😀'.repeat(4)}…`);
  });

  test('non-strings are shown as JSON', () => {
    assert.equal(oneLine({ a: [1, 2] }), '{"a":[1,2]}');
    assert.equal(oneLine(undefined), 'undefined');
  });
});

describe('summariseResult', () => {
  test('counts the further non-blank lines and keeps the whole within the width', () => {
    const summary = summariseResult(`${'y'.repeat(100)}\nsecond\nthird`, 40);
    assert.ok(summary.endsWith('… (+2 lines)'), summary);
    assert.ok(Array.from(summary).length <= 40, summary);
  });

  test('an empty result is an empty summary', () => {
    assert.equal(summariseResult(''), '');
  });
});

describe('formatCall', () => {
  test('shows arguments as key: JSON value', () => {
    assert.equal(formatCall('get_weather', { city: '北京' }), 'get_weather(city: "北京")');
    assert.equal(formatCall('read_file', { path: 'a.txt', offset: 10 }), 'read_file(path: "a.txt", offset: 10)');
  });

  test('a long value is cut, newlines stay escaped', () => {
    const shown = formatCall('write_file', { path: 'notes.md', content: `line one\n${'长'.repeat(200)}` });
    assert.ok(shown.startsWith('write_file(path: "notes.md", content: "line one\\n长'), shown);
    assert.ok(shown.endsWith('…)'), shown);
    assert.equal(shown.includes('\n'), false);
    const content = shown.slice(shown.indexOf('content: ') + 'content: '.length, -1);
    assert.ok(displayWidth(content) <= 60 && displayWidth(content) >= 58, `${displayWidth(content)} columns`);
  });

  test('no input, or input that is not an object', () => {
    assert.equal(formatCall('current_time', undefined), 'current_time()');
    assert.equal(formatCall('echo', 'hi'), 'echo("hi")');
    assert.equal(formatCall('list', [1, 2]), 'list([1,2])');
  });
});

describe('formatUsage', () => {
  test('thousands separators below 10k, k above', () => {
    assert.equal(formatUsage({ inputTokens: 1234, outputTokens: 56, cachedInputTokens: 0 }), '1,234 in · 56 out');
    assert.equal(formatUsage({ inputTokens: 12_345, outputTokens: 250_000, cachedInputTokens: 0 }), '12.3k in · 250.0k out');
  });
});

describe('chalkFor', () => {
  const terminal: Output = { write: () => true, isTTY: true };
  const pipe: Output = { write: () => true, isTTY: false };

  test('colour only on a terminal without NO_COLOR or TERM=dumb', () => {
    assert.equal(chalkFor(terminal, {}).level, 1);
    assert.equal(chalkFor(pipe, {}).level, 0);
    assert.equal(chalkFor(terminal, { NO_COLOR: '1' }).level, 0);
    assert.equal(chalkFor(terminal, { TERM: 'dumb' }).level, 0);
  });

  test('FORCE_COLOR forces colour into a pipe', () => {
    assert.equal(chalkFor(pipe, { FORCE_COLOR: '1' }).level, 1);
  });

  test(
    'FORCE_COLOR=0 does not force colour',
    () => {
      assert.equal(chalkFor(pipe, { FORCE_COLOR: '0' }).level, 0);
    },
  );
});
