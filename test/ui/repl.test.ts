import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ModelMessage } from 'ai';
import type { CompactResult } from '../../src/agent/context/compact.ts';
import { Conversation } from '../../src/agent/context/conversation.ts';
import { type AgentEvent, type StopReason } from '../../src/agent/loop/events.ts';
import { emptyUsage, type TokenUsage } from '../../src/shared/token-usage.ts';
import type { ApprovalPolicy } from '../../src/agent/loop/turn-options.ts';
import type { Config } from '../../src/config/config.ts';
import type { Runtime } from '../../src/runtime/runtime.ts';
import { stubRuntime as stubRuntimeWith } from '../helpers/stub-runtime.ts';
import type { RuntimeMcp } from '../../src/mcp/runtime-mcp.ts';
import { TodoList } from '../../src/tools/todo/todo-list.ts';
import type { LineReader, ReadResult } from '../../src/ui/input/line-reader-contract.ts';
import type { Output } from '../../src/ui/render/render.ts';
import { runRepl } from '../../src/ui/repl/repl.ts';
import { PROMPT } from '../../src/ui/render/mode-display.ts';
import { SLASH_COMMANDS } from '../../src/ui/commands/slash-commands.ts';

// The test runner sets FORCE_COLOR=1 for its children when it runs in a terminal; the REPL reads process.env.
const savedForceColor = process.env.FORCE_COLOR;
let home: string;
before(() => {
  delete process.env.FORCE_COLOR;
  home = mkdtempSync(join(tmpdir(), 'sylvan-repl-'));
});
after(() => {
  if (savedForceColor !== undefined) process.env.FORCE_COLOR = savedForceColor;
  rmSync(home, { recursive: true, force: true });
});

/** One scripted answer of the reader: a result, or work to do when the prompt is answered. */
type Step = ReadResult | (() => ReadResult);

/** A reader that answers from a script; reading past the end fails the test. */
class ScriptedReader implements LineReader {
  readonly prompts: string[] = [];
  readonly history: readonly string[] = [];
  readonly interactive = true;
  /** How many prompts had been read each time the REPL gave the queued lines back to the input. */
  readonly takenBack: number[] = [];
  readonly typeAhead = {
    view: () => ({ rows: [] }),
    watch: () => () => {},
    takeBack: () => void this.takenBack.push(this.prompts.length),
  };
  constructor(private readonly script: Step[]) {}
  async read(prompt: string): Promise<ReadResult> {
    this.prompts.push(prompt);
    // The user answers after the prompt is drawn: let the REPL run on first.
    await Promise.resolve();
    const next = this.script.shift();
    if (next === undefined) throw new Error(`the REPL read past the end of the script (prompt ${JSON.stringify(prompt)})`);
    return typeof next === 'function' ? next() : next;
  }
  close(): void {}
}

const line = (text: string): ReadResult => ({ kind: 'line', line: text });
const eof: ReadResult = { kind: 'eof' };
const interrupt = (hadText: boolean): ReadResult => ({ kind: 'interrupt', hadText });

class Buffer implements Output {
  readonly isTTY = false;
  private readonly chunks: string[] = [];
  write(text: string): boolean {
    this.chunks.push(text);
    return true;
  }
  get text(): string {
    return this.chunks.join('');
  }
}

/** SIGINT as the REPL sees it: handlers subscribe while a turn runs. */
class FakeInterrupts {
  private readonly handlers = new Set<() => void>();
  subscribe = (handler: () => void): (() => void) => {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  };
  fire(): void {
    for (const handler of [...this.handlers]) handler();
  }
  get listening(): number {
    return this.handlers.size;
  }
}

type Turn = (text: string, signal: AbortSignal, approval: ApprovalPolicy) => AsyncGenerator<AgentEvent, StopReason>;

const usage = (inputTokens: number, outputTokens: number): TokenUsage => ({ inputTokens, outputTokens, cachedInputTokens: 0 });

/** A turn that answers `text` and reports `tokens` of usage. */
function answering(text: string, tokens = usage(0, 0)): Turn {
  return async function* () {
    yield { type: 'step-start', step: 1 };
    yield { type: 'text-delta', text };
    yield { type: 'step-end', step: 1, usage: tokens, finishReason: 'stop' };
    yield { type: 'turn-end', stopReason: 'completed', usage: tokens, steps: 1 };
    return 'completed';
  };
}

interface StubRuntime extends Runtime {
  readonly turnTexts: string[];
  readonly calls: string[];
}

function stubRuntime(
  turns: Turn[],
  overrides: { sessionUsage?: TokenUsage; compact?: Runtime['compact']; messages?: ModelMessage[]; contextShare?: () => number } = {},
): StubRuntime {
  const turnTexts: string[] = [];
  const calls: string[] = [];
  let model = 'qwen-plus-latest';
  return stubRuntimeWith({
    conversation: new Conversation(overrides.messages),
    toolNames: ['get_weather', 'calculate', 'write_file'],
    get model() {
      return model;
    },
    sessionId: 'session-1',
    windowTokens: 131_072,
    sessionUsage: overrides.sessionUsage ?? emptyUsage(),
    todo: new TodoList(),
    turnTexts,
    calls,
    runTurn(text, signal, approval) {
      turnTexts.push(text);
      const turn = turns.shift();
      assert.ok(turn, `no turn scripted for ${JSON.stringify(text)}`);
      return turn(text, signal, approval);
    },
    describeCall: async (request) => ({ summary: `${request.toolName} hello.txt (1 line)`, preview: '+ hello' }),
    compact:
      overrides.compact ??
      (async (): Promise<CompactResult> => {
        calls.push('compact');
        return { ok: false, message: 'not scripted', usage: emptyUsage() };
      }),
    clear: () => calls.push('clear'),
    setModel: (name) => {
      calls.push(`setModel ${name}`);
      model = name;
    },
    contextShare: overrides.contextShare ?? (() => 0.25),
    runUserCommand: async (command) => {
      calls.push(`run ${command}`);
      return { ok: true, output: `exit code 0 (0.0 s)\nstdout:\nran ${command}`, notices: [] };
    },
    historyTokens: () => 1000,
    close: () => calls.push('close'),
  });
}

const baseConfig: Config = {
  provider: 'dashscope',
  model: 'qwen-plus-latest',
  apiKey: 'sk-test',
  baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
  keyVariable: 'DASHSCOPE_API_KEY',
  baseUrlVariable: 'DASHSCOPE_BASE_URL',
  maxSteps: 10,
  tokenBudget: 500_000,
  timeoutSeconds: 120,
  toolTimeoutSeconds: 60,
  maxRetries: 3,
  yes: false,
  approvalMode: 'ask',
  weather: 'live',
  mockDelayMs: 0,
  home: '',
  contextTokens: 131_072,
  debug: false,
  secretPatterns: [],
  mode: { kind: 'repl' },
  json: false,
  cwd: '',
};

interface Session {
  script: Step[];
  turns?: Turn[];
  runtime?: StubRuntime;
  config?: Partial<Config>;
  now?: () => number;
  interrupts?: FakeInterrupts;
  /** Counts loadRuntime calls as they happen. */
  counter?: { loads: number };
  pipedInput?: boolean;
}

async function runSession(session: Session) {
  const reader = new ScriptedReader(session.script);
  const output = new Buffer();
  const interrupts = session.interrupts ?? new FakeInterrupts();
  const runtime = session.runtime ?? stubRuntime(session.turns ?? []);
  const remembered: string[] = [];
  const counter = session.counter ?? { loads: 0 };
  const code = await runRepl({
    config: { ...baseConfig, home, cwd: home, ...session.config },
    reader,
    output,
    loadRuntime: async () => {
      counter.loads++;
      return runtime;
    },
    onInterrupt: interrupts.subscribe,
    rememberLine: (text) => remembered.push(text),
    now: session.now,
    pipedInput: session.pipedInput,
  });
  return { code, output: output.text, prompts: reader.prompts, runtime, loads: counter.loads, remembered, interrupts, takenBack: reader.takenBack };
}

describe('runRepl: prompts and leaving', () => {
  test('an empty line prompts again without a turn', async () => {
    const { code, prompts, runtime, remembered } = await runSession({ script: [line(''), line('   '), eof] });
    assert.equal(code, 0);
    assert.deepEqual(prompts, [PROMPT, PROMPT, PROMPT]);
    assert.deepEqual(runtime.turnTexts, []);
    assert.deepEqual(remembered, []);
  });

  for (const word of ['exit', 'quit', '/exit', '  exit  ']) {
    test(`"${word}" returns 0`, async () => {
      const { code, runtime } = await runSession({ script: [line(word)] });
      assert.equal(code, 0);
      assert.deepEqual(runtime.turnTexts, []);
    });
  }

  test('end of input returns 0', async () => {
    assert.equal((await runSession({ script: [eof] })).code, 0);
  });

  test('Ctrl-C at an empty prompt returns 0', async () => {
    assert.equal((await runSession({ script: [interrupt(false)] })).code, 0);
  });

  test('Ctrl-C with text clears the line and keeps going', async () => {
    let clock = 0;
    const { code, runtime } = await runSession({
      script: [interrupt(true), () => ((clock = 5000), line('hi')), eof],
      turns: [answering('hello')],
      now: () => clock,
    });
    assert.equal(code, 0);
    assert.deepEqual(runtime.turnTexts, ['hi']);
  });

  test('Ctrl-C with text twice within a second quits', async () => {
    let clock = 10_000;
    const { code, prompts } = await runSession({
      script: [interrupt(true), () => ((clock += 400), interrupt(true))],
      now: () => clock,
    });
    assert.equal(code, 0);
    assert.equal(prompts.length, 2);
  });

  test('Ctrl-C with text twice, more than a second apart, keeps going', async () => {
    let clock = 10_000;
    const { code, prompts } = await runSession({
      script: [interrupt(true), () => ((clock += 1500), interrupt(true)), eof],
      now: () => clock,
    });
    assert.equal(code, 0);
    assert.equal(prompts.length, 3);
  });

  test('typed lines are remembered, trimmed', async () => {
    const { remembered } = await runSession({ script: [line('  北京天气  '), line('/help'), eof], turns: [answering('晴')] });
    assert.deepEqual(remembered, ['北京天气', '/help']);
  });
});

describe('runRepl: loading the runtime', () => {
  test('loadRuntime starts once, while the first prompt waits', async () => {
    const counter = { loads: 0 };
    let loadsWhenAnswered = -1;
    const { loads, runtime } = await runSession({
      script: [
        () => {
          loadsWhenAnswered = counter.loads;
          return line('one');
        },
        line('/tools'),
        line('two'),
        eof,
      ],
      turns: [answering('1'), answering('2')],
      counter,
    });
    assert.equal(loadsWhenAnswered, 1, 'the runtime should already be loading when the user answers the first prompt');
    assert.equal(loads, 1);
    assert.deepEqual(runtime.turnTexts, ['one', 'two']);
  });

  test('a runtime that fails to load ends the REPL with 1 and one line', async () => {
    const reader = new ScriptedReader([line('hello')]);
    const output = new Buffer();
    const code = await runRepl({
      config: { ...baseConfig, home, cwd: home },
      reader,
      output,
      loadRuntime: async () => {
        throw new Error('Cannot find module @ai-sdk/openai');
      },
      onInterrupt: new FakeInterrupts().subscribe,
    });
    assert.equal(code, 1);
    assert.equal(output.text, '✗ Could not start the model: Cannot find module @ai-sdk/openai\n');
  });
});

describe('runRepl: turns', () => {
  test('the answer is shown, then a usage line', async () => {
    const { output, runtime } = await runSession({ script: [line('北京天气'), eof], turns: [answering('晴，21°C', usage(1000, 200))] });
    assert.deepEqual(runtime.turnTexts, ['北京天气']);
    assert.equal(output, '晴，21°C\n· 1,000 in · 200 out · context 25% of 131k\n');
  });

  test("the usage line's context share is the runtime's, the one /usage shows too", async () => {
    const turn: Turn = async function* () {
      yield { type: 'step-end', step: 1, usage: usage(30_000, 100), finishReason: 'tool-calls' };
      yield { type: 'step-end', step: 2, usage: usage(65_000, 536), finishReason: 'stop' };
      yield { type: 'turn-end', stopReason: 'completed', usage: usage(95_000, 636), steps: 2 };
      return 'completed';
    };
    const runtime = stubRuntime([turn], { contextShare: () => 0.504 });
    const { output } = await runSession({ script: [line('go'), line('/usage'), eof], runtime });
    assert.match(output, /^· 95\.0k in · 636 out · context 50% of 131k\n/);
    assert.match(output, /\n {2}context: 50% of the 131k window\n/);
  });

  test('no usage line when the turn used no tokens', async () => {
    const { output } = await runSession({ script: [line('hi'), eof], turns: [answering('hello')] });
    assert.equal(output, 'hello\n');
  });

  test('leaving a session with turns says how to resume it, and its token totals', async () => {
    const runtime = stubRuntime([answering('hello')], {
      messages: [{ role: 'user', content: 'hi' }],
      sessionUsage: usage(12_345, 678),
    });
    const { output, code } = await runSession({ script: [line('hi'), eof], runtime });
    assert.equal(code, 0);
    assert.equal(output, 'hello\nResume this session: sylvan --resume session-1\nSession tokens: 12.3k in · 678 out\n');
  });

  test('leaving before any turn says nothing more', async () => {
    const { output } = await runSession({ script: [line('/tools'), eof] });
    assert.doesNotMatch(output, /Resume this session/);
  });

  test('an @path attaches the workspace file to what the model gets; the typed line is what is remembered', async () => {
    writeFileSync(join(home, 'notes.txt'), 'remember the milk\n');
    const { runtime, remembered, output } = await runSession({ script: [line('read @notes.txt and @.env'), eof], turns: [answering('ok')] });
    assert.deepEqual(runtime.turnTexts, ['read @notes.txt and @.env\n\n<file path="notes.txt">\nremember the milk\n\n</file>']);
    assert.deepEqual(remembered, ['read @notes.txt and @.env']);
    assert.match(output, /@\.env not attached: .*secret/);
    assert.match(output, /attached notes\.txt/);
  });

  test('a turn that failed shows its one line', async () => {
    const failing: Turn = async function* () {
      yield { type: 'turn-end', stopReason: 'error', usage: emptyUsage(), steps: 1, message: 'DashScope rejected the API key (401).', debug: 'Error: stack' };
      return 'error';
    };
    const { output, code } = await runSession({ script: [line('hi'), eof], turns: [failing] });
    assert.equal(code, 0);
    assert.equal(output, '✗ DashScope rejected the API key (401).\n');
  });

  test('with SYLVAN_DEBUG the stack follows', async () => {
    const failing: Turn = async function* () {
      yield { type: 'turn-end', stopReason: 'error', usage: emptyUsage(), steps: 1, message: 'failed', debug: 'Error: stack\n    at x' };
      return 'error';
    };
    const { output } = await runSession({ script: [line('hi'), eof], turns: [failing], config: { debug: true } });
    assert.match(output, /Error: stack\n {4}at x/);
  });

  test('Ctrl-C during a turn aborts its signal; the REPL carries on', async () => {
    const interrupts = new FakeInterrupts();
    const seen: { listening: number; aborted: boolean }[] = [];
    const turn: Turn = async function* (_text, signal) {
      yield { type: 'text-delta', text: 'Partial' };
      const listening = interrupts.listening;
      interrupts.fire();
      seen.push({ listening, aborted: signal.aborted });
      yield { type: 'turn-end', stopReason: 'aborted', usage: emptyUsage(), steps: 1, message: 'Interrupted.' };
      return 'aborted';
    };
    let clock = 0;
    const { code, output, runtime } = await runSession({
      script: [line('long question'), () => ((clock = 5000), line('next')), eof],
      turns: [turn, answering('ok')],
      interrupts,
      now: () => clock,
    });
    assert.deepEqual(seen, [{ listening: 1, aborted: true }]);
    assert.equal(interrupts.listening, 0, 'the handler is removed after the turn');
    assert.equal(code, 0);
    assert.deepEqual(runtime.turnTexts, ['long question', 'next']);
    assert.equal(output, 'Partial\n■ Interrupted.\nok\n');
  });

  test('what was queued during a turn goes back to the input after a turn that did not complete, and stays queued after one that did', async () => {
    const ending = (stopReason: StopReason): Turn =>
      async function* () {
        yield { type: 'turn-end', stopReason, usage: emptyUsage(), steps: 1 };
        return stopReason;
      };
    const { takenBack } = await runSession({
      script: [line('one'), line('two'), line('three'), line('four'), eof],
      turns: [ending('completed'), ending('aborted'), ending('error'), ending('completed')],
    });
    assert.deepEqual(takenBack, [2, 3], 'after the second and third turns only');
  });

  test('two Ctrl-C within a second during a turn return 130', async () => {
    const interrupts = new FakeInterrupts();
    let clock = 1000;
    const turn: Turn = async function* (_text, signal) {
      interrupts.fire();
      clock += 600;
      interrupts.fire();
      assert.equal(signal.aborted, true);
      yield { type: 'turn-end', stopReason: 'aborted', usage: emptyUsage(), steps: 1 };
      return 'aborted';
    };
    const { code } = await runSession({ script: [line('go')], turns: [turn], interrupts, now: () => clock });
    assert.equal(code, 130);
  });

  test('two Ctrl-C more than a second apart during a turn do not quit', async () => {
    const interrupts = new FakeInterrupts();
    let clock = 1000;
    const turn: Turn = async function* () {
      interrupts.fire();
      clock += 1500;
      interrupts.fire();
      yield { type: 'turn-end', stopReason: 'aborted', usage: emptyUsage(), steps: 1 };
      return 'aborted';
    };
    const { code, prompts } = await runSession({ script: [line('go'), eof], turns: [turn], interrupts, now: () => clock });
    assert.equal(code, 0);
    assert.equal(prompts.length, 2);
  });

  test('Ctrl-C at the approval question aborts the turn', async () => {
    let decision: unknown;
    let abortedAfter = false;
    const turn: Turn = async function* (_text, signal, approval) {
      decision = await approval.ask({ toolCallId: 'c1', toolName: 'write_file', input: { path: 'hello.txt', content: 'hello' } }, signal);
      abortedAfter = signal.aborted;
      yield { type: 'turn-end', stopReason: 'aborted', usage: emptyUsage(), steps: 1 };
      return 'aborted';
    };
    const { code, prompts, output } = await runSession({ script: [line('write it'), interrupt(false), eof], turns: [turn] });
    assert.equal(code, 0);
    assert.equal(prompts[1], 'write_file hello.txt (1 line)? [y]es / [n]o / [a]lways this session › ');
    assert.match(output, /\+ hello/, 'the preview is shown');
    assert.deepEqual(decision, { approved: false, reason: 'The user interrupted.' });
    assert.equal(abortedAfter, true);
  });
});

describe('runRepl: !command', () => {
  test('runs the command through the runtime without a question, shows its output, and /last shows it whole', async () => {
    const { output, runtime } = await runSession({ script: [line('!echo hi'), line('/last'), eof] });
    assert.deepEqual(runtime.calls, ['run echo hi']);
    assert.deepEqual(runtime.turnTexts, [], 'no turn: the model is not asked');
    assert.equal(
      output.replace(/ · \d+\.\ds\n/, ' · (took)\n'),
      [
        // Outside git, said before the command runs.
        "(this folder is not in a git work tree, so what commands change cannot be undone; /undo covers Sylvan's own file edits)",
        '✓ $ echo hi · exit code 0 (0.0 s)',
        '  ⎿ ran echo hi',
        'run_command(command: "echo hi") · (took)', '  exit code 0 (0.0 s)', '  stdout:', '  ran echo hi', ''].join('\n'),
    );
  });

  test('a bare ! explains itself; from a pipe nothing runs', async () => {
    const bare = await runSession({ script: [line('!'), eof] });
    assert.match(bare.output, /^ {2}Type a command after !, e\.g\. !git status/);
    const piped = await runSession({ script: [line('!rm -rf x'), eof], pipedInput: true });
    assert.match(piped.output, /^ {2}!command runs only when typed at a terminal/);
    assert.deepEqual([...bare.runtime.calls, ...piped.runtime.calls], []);
  });
});

describe('runRepl: slash commands', () => {
  test('/help lists every command and runs no turn', async () => {
    const { output, runtime } = await runSession({ script: [line('/help'), eof] });
    for (const command of SLASH_COMMANDS) assert.match(output, new RegExp(`^  ${command}\\b`, 'm'), command);
    assert.match(output, /Ctrl-C/);
    assert.deepEqual(runtime.turnTexts, []);
  });

  test('/tools lists the tools', async () => {
    assert.equal((await runSession({ script: [line('/tools'), eof] })).output, '  get_weather, calculate, write_file\n');
  });

  test('an unknown command gets a hint', async () => {
    const { output, runtime, code } = await runSession({ script: [line('/frobnicate now'), eof] });
    assert.equal(output, '  Unknown command /frobnicate. Try /help.\n');
    assert.deepEqual(runtime.turnTexts, []);
    assert.equal(code, 0);
  });

  test('commands are case-insensitive', async () => {
    assert.equal((await runSession({ script: [line('/TOOLS'), eof] })).output, '  get_weather, calculate, write_file\n');
  });

  test('/model shows the model and provider, /model NAME switches', async () => {
    const { output, runtime } = await runSession({ script: [line('/model'), line('/model qwen-max'), line('/model'), eof] });
    // The stub's server lists no models: the line saying so is not this test's subject.
    const shown = output.split('\n').filter((row) => !row.includes('Could not list'));
    assert.match(shown[0] ?? '', /^  qwen-plus-latest \(dashscope\) · 131k context · /);
    assert.match(shown[1] ?? '', /^  Now using qwen-max: /);
    assert.match(shown[2] ?? '', /^  qwen-max \(dashscope\) · .*qwen-max has no thinking mode$/);
    assert.deepEqual(runtime.calls, ['setModel qwen-max']);
  });

  test('/model NAME with the mock provider explains there is one model', async () => {
    const { output, runtime } = await runSession({ script: [line('/model qwen-max'), eof], config: { provider: 'mock' } });
    assert.match(output, /one model/);
    assert.deepEqual(runtime.calls, []);
  });

  test('/usage prints the session totals, the context share and the estimated cost', async () => {
    const runtime = stubRuntime([], { sessionUsage: { inputTokens: 12_345, outputTokens: 678, cachedInputTokens: 1000 } });
    const { output } = await runSession({ script: [line('/usage'), eof], runtime });
    // qwen-plus: 11,345 fresh × $0.4 + 1,000 implicit hits × 20% of $0.4 + 678 out × $1.2, per million.
    assert.equal(
      output,
      [
        '  session: 12,345 input · 678 output · 1,000 cached',
        '  cache: 8% of input served from cache (1,000 implicit hits at 20%)',
        '  context: 25% of the 131k window',
        '  ≈ $0.0054 at qwen-plus-latest list prices (an estimate); the cache saved $0.0003 of $0.0049 input',
        '',
      ].join('\n'),
    );
  });

  test('/usage prices explicit cache hits at 10% and the tokens that created a block at 125%, and shows the saving', async () => {
    const sessionUsage = { inputTokens: 100_000, outputTokens: 1_000, cachedInputTokens: 90_000, explicitCachedInputTokens: 90_000, cacheCreationInputTokens: 8_000 };
    const runtime = stubRuntime([], { sessionUsage });
    const { output } = await runSession({ script: [line('/usage'), eof], runtime });
    // qwen-plus at $0.4: 2,000 fresh + 8,000 × 1.25 + 90,000 × 0.1 = 21,000 token-prices of input = $0.0084, + 1,000 out × $1.2.
    assert.equal(
      output,
      [
        '  session: 100,000 input · 1,000 output · 90,000 cached',
        '  cache: 90% of input served from cache (90,000 explicit hits at 10%, 8,000 written to the cache at 125%)',
        '  context: 25% of the 131k window',
        '  ≈ $0.0096 at qwen-plus-latest list prices (an estimate); the cache saved $0.0316 of $0.0400 input',
        '',
      ].join('\n'),
    );
  });

  test('/approvals shows and resets the "always" answers', async () => {
    const decisions: string[] = [];
    const approveAlways: Turn = async function* (_text, signal, approval) {
      await approval.ask({ toolCallId: 'c1', toolName: 'write_file', input: {} }, signal);
      decisions.push(String(approval.decide('write_file', {})));
      yield { type: 'turn-end', stopReason: 'completed', usage: emptyUsage(), steps: 1 };
      return 'completed';
    };
    const checkAgain: Turn = async function* (_text, _signal, approval) {
      decisions.push(String(approval.decide('write_file', {})));
      yield { type: 'turn-end', stopReason: 'completed', usage: emptyUsage(), steps: 1 };
      return 'completed';
    };
    const { output } = await runSession({
      script: [line('/approvals'), line('write'), line('a'), line('/approvals'), line('/approvals'), line('write again'), eof],
      turns: [approveAlways, checkAgain],
    });
    assert.deepEqual(decisions, ['allow', 'ask']);
    const lines = output.split('\n').filter((text) => text.startsWith('  ') && !text.startsWith('  │'));
    assert.deepEqual(lines, [
      '  Nothing is always-approved: you are asked before each file write, command, new web domain and untrusted MCP tool.',
      '  Always-approved this session: write_file. Reset: you will be asked again.',
      '  Nothing is always-approved: you are asked before each file write, command, new web domain and untrusted MCP tool.',
    ]);
  });

  test('/approvals resets only this session\'s "always" answers: what the settings approved ahead stays, and is shown apart', async () => {
    const decisions: string[] = [];
    const decide = (approval: ApprovalPolicy) =>
      decisions.push(
        [approval.decide('run_command', { command: 'npm test' }), approval.decide('write_file', { path: 'a.txt', content: '' })].join(' '),
      );
    const approveAlways: Turn = async function* (_text, signal, approval) {
      await approval.ask({ toolCallId: 'c1', toolName: 'write_file', input: { path: 'a.txt', content: '' } }, signal);
      decide(approval);
      yield { type: 'turn-end', stopReason: 'completed', usage: emptyUsage(), steps: 1 };
      return 'completed';
    };
    const checkAgain: Turn = async function* (_text, _signal, approval) {
      decide(approval);
      yield { type: 'turn-end', stopReason: 'completed', usage: emptyUsage(), steps: 1 };
      return 'completed';
    };
    const runtime = stubRuntime([approveAlways, checkAgain]);
    const mcp: Pick<RuntimeMcp, 'approvedAhead'> = { approvedAhead: ['command:npm test'] };
    Object.assign(runtime, { mcp });
    const { output } = await runSession({
      script: [line('/approvals'), line('write'), line('a'), line('/approvals'), line('/approvals'), line('write again'), eof],
      runtime,
    });
    // npm test stays allowed throughout; the write is asked about again after the reset.
    assert.deepEqual(decisions, ['allow allow', 'allow ask']);
    const lines = output.split('\n').filter((text) => text.startsWith('  ') && !text.startsWith('  │'));
    const ahead = '  Approved ahead by your settings (permissions.allow; a reset keeps them): command:npm test.';
    assert.deepEqual(lines, [
      ahead,
      '  Nothing was answered "always" this session.',
      ahead,
      '  Always-approved this session: write_file. Reset: you will be asked again.',
      ahead,
      '  Nothing was answered "always" this session.',
    ]);
  });

  test('/clear starts a new session', async () => {
    const { output, runtime } = await runSession({ script: [line('/clear'), eof] });
    assert.deepEqual(runtime.calls, ['clear']);
    assert.match(output, /New session/);
  });

  test('/sessions with none saved says so', async () => {
    assert.equal((await runSession({ script: [line('/sessions'), eof] })).output, '  No saved sessions in this folder yet.\n');
  });

  test('/compact with an empty history has nothing to do', async () => {
    const { output, runtime } = await runSession({ script: [line('/compact'), eof] });
    assert.equal(output, '  Nothing to compact yet.\n');
    assert.deepEqual(runtime.calls, []);
  });

  test('/compact can be stopped with Ctrl-C', async () => {
    const interrupts = new FakeInterrupts();
    let focusSeen: string | undefined;
    let abortedByCtrlC = false;
    const runtime = stubRuntime([], {
      messages: [{ role: 'user', content: 'hello' }],
      compact: async (focus, signal) => {
        focusSeen = focus;
        interrupts.fire();
        abortedByCtrlC = signal.aborted;
        return { ok: false, message: 'Compaction interrupted; the history was left as it was.', usage: emptyUsage() };
      },
    });
    const { output } = await runSession({ script: [line('/compact keep the file names'), eof], runtime, interrupts });
    assert.equal(focusSeen, 'keep the file names');
    assert.equal(abortedByCtrlC, true);
    assert.equal(interrupts.listening, 0);
    assert.match(output, /Compaction interrupted/);
  });
});
