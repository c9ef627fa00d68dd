import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { text, type Reply } from '../helpers/dashscope-server.ts';
import { fixtureChunks, replayFixture, textChunk } from '../helpers/fixture-replies.ts';

// Issue 11: recorded DashScope streams and other servers' quirks, replayed through `sylvan -p`
// against the loopback server (fixtures and their sources: test/fixtures/dashscope/README.md).

const KEY = 'sk-traffic-test';
const TIMEOUT = { timeout: 60_000 };

interface JsonEvent {
  type: string;
  text?: string;
  toolName?: string;
  reason?: string;
  stopReason?: string;
  message?: string;
}

const eventsOf = (stdout: string): JsonEvent[] =>
  stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as JsonEvent);
const joined = (events: JsonEvent[], type: string): string =>
  events.filter((event) => event.type === type).map((event) => event.text ?? '').join('');
const lines = (output: string): string[] => output.split('\n').filter((line) => line.trim() !== '');

/** A chunk in the shape every OpenAI-compatible server uses. */
const chunk = (delta: object, finishReason: string | null = null, model = 'local-model'): object => ({
  id: 'chatcmpl-local',
  object: 'chat.completion.chunk',
  created: 1770764942,
  model,
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});
const stream = (...chunks: object[]): Reply => ({ kind: 'raw', chunks: [...chunks, '[DONE]'] });

/** The CLI as the openai provider against a local server (vLLM, llama.cpp, Gemini's endpoint). */
const asOpenAICompatible = (serverBase: string) => ({ SYLVAN_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: serverBase });

describe('thinking that shows', () => {
  const reasoningJson = runCli({ inProcess: true, server: { replies: [replayFixture('qwen3-max-reasoning.chunks.txt')] },
    args: ['--json', '-m', 'qwen3-max', 'How many r are in strawberry?'],
    key: KEY,
  });
  const reasoningPlain = runCli({ inProcess: true, server: { replies: [replayFixture('qwen3-max-reasoning.chunks.txt')] },
    args: ['-p', '-m', 'qwen3-max', 'How many r are in strawberry?'],
    key: KEY,
  });

  const recordedAnswer = fixtureChunks('qwen3-max-reasoning.chunks.txt')
    .map((part) => (part as { choices: { delta: { content?: string | null } }[] }).choices[0]?.delta.content ?? '')
    .join('');

  test('a qwen3-max thinking stream arrives as reasoning-delta events, the answer apart', TIMEOUT, async () => {
    const { result } = await reasoningJson;
    assert.equal(result.code, 0, result.stderr);
    const events = eventsOf(result.stdout);
    assert.ok(events.filter((event) => event.type === 'reasoning-delta').length >= 10, 'reasoning events in --json');
    assert.match(joined(events, 'reasoning-delta'), /^We are asked: "How many 'r's are in the word 'strawberry'\?"/);
    assert.equal(joined(events, 'text-delta'), recordedAnswer);
    assert.doesNotMatch(joined(events, 'text-delta'), /We are asked/);
  });

  test('plain print mode writes the answer alone on stdout', TIMEOUT, async () => {
    const { result } = await reasoningPlain;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), recordedAnswer.trim());
  });

  for (const [model, fixture] of [
    ['qwen3.5-plus', 'qwen3.5-plus-reasoning-tool-call.chunks.txt'],
    ['qwen3-coder-plus', 'qwen3-coder-reasoning-tool-call.chunks.txt'],
  ] as const) {
    test(`a tool call ${model} wrote inside its reasoning is reported, never a blank exit 0`, TIMEOUT, async () => {
      const { result, server } = await runCli({ inProcess: true, server: { replies: [replayFixture(fixture)] },
        args: ['--json', '-m', model, 'Weather in Lisbon?'],
        key: KEY,
      });
      assert.equal(result.code, 1, result.stderr);
      const events = eventsOf(result.stdout);
      assert.match(joined(events, 'reasoning-delta'), /get_weather/);
      const end = events.at(-1);
      assert.equal(end?.type, 'turn-end');
      assert.equal(end?.stopReason, 'error');
      assert.match(end?.message ?? '', /tool call into its reasoning.*nothing ran \(finish reason: stop\)/);
      assert.deepEqual(lines(result.stderr), [end?.message]);
      assert.equal(server.requests.length, 1);
    });
  }

  test('<think> tags inside content (vLLM without a reasoning parser) become reasoning, not the answer', TIMEOUT, async () => {
    const { result } = await runCli({ inProcess: true, server: {
        replies: [
          stream(
            chunk({ role: 'assistant', content: '' }),
            chunk({ content: '<think>The user' }),
            chunk({ content: ' says hi.</think>' }),
            chunk({ content: 'Hello! How can I help?' }),
            chunk({}, 'stop'),
          ),
        ],
      }, args: ['--json', 'hi'], key: KEY, env: {} });
    assert.equal(result.code, 0, result.stderr);
    const events = eventsOf(result.stdout);
    assert.equal(joined(events, 'reasoning-delta'), 'The user says hi.');
    assert.equal(joined(events, 'text-delta'), 'Hello! How can I help?');
  });

  test('<think> tags are read for other OpenAI-compatible servers too', TIMEOUT, async () => {
    const { result } = await cliAgainstServerAsOpenAI([stream(chunk({ role: 'assistant', content: '<think>Short.</think>Hi there.' }), chunk({}, 'stop'))], ['-p', 'hi']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'Hi there.');
  });

  test("llama.cpp's leaked <tool_call> markup is not shown as the answer", TIMEOUT, async () => {
    const { result } = await cliAgainstServerAsOpenAI(
      [
        stream(
          chunk({ role: 'assistant', content: '<tool_call>\n{"name": "calculate", ' }),
          chunk({ content: '"arguments": {"expression": "2+2"}}\n</tool_call>' }),
          chunk({}, 'stop'),
        ),
      ],
      ['-p', 'what is 2+2?'],
    );
    assert.doesNotMatch(result.stdout, /tool_call|calculate/);
    assert.equal(result.code, 1, result.stderr);
    assert.match(lines(result.stderr).at(-1) ?? '', /tool call .*nothing ran/);
  });
});

/** The CLI against a loopback server as an OpenAI-compatible one: the base URL is the server's. */
async function cliAgainstServerAsOpenAI(replies: Reply[], args: string[]) {
  const { startDashScopeServer } = await import('../helpers/dashscope-server.ts');
  const { closeAtEnd } = await import('../helpers/served.ts');
  const { runCli } = await import('../helpers/cli.ts');
  const server = closeAtEnd(await startDashScopeServer({ replies }));
  const result = await runCli({ inProcess: true, args, env: { ...asOpenAICompatible(server.baseURL), SYLVAN_MAX_RETRIES: '0' } });
  return { server, result };
}

describe("every OpenAI-compatible server's tool calls", () => {
  test("Gemini's tool-call deltas without index run the tool", TIMEOUT, async () => {
    const geminiCall = chunk(
      {
        role: 'assistant',
        tool_calls: [{ id: 'function-call-1', type: 'function', function: { name: 'calculate', arguments: '{"expression":"6*7"}' } }],
      },
      'tool_calls',
      'gemini-2.5-flash',
    );
    const { result, server } = await cliAgainstServerAsOpenAI(
      [stream(geminiCall), stream(chunk({ role: 'assistant', content: 'It is 42.' }, 'stop', 'gemini-2.5-flash'))],
      ['-p', 'what is 6*7?'],
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'It is 42.');
    assert.equal(server.requests.length, 2);
    assert.match(toolResultText(requestAt(server, 1), 'function-call-1'), /42/);
  });
});

describe('a step that cannot be used', () => {
  test('a length finish does not run its tool calls: each gets an error telling the model to re-issue it', TIMEOUT, async () => {
    const cutCall: Reply = {
      kind: 'raw',
      chunks: [
        textChunk(''),
        {
          ...(textChunk('') as object),
          choices: [
            {
              delta: { tool_calls: [{ index: 0, id: 'call_cut', type: 'function', function: { name: 'write_file', arguments: '{"path":"notes.txt","content":"a long' } }] },
              finish_reason: null,
              index: 0,
            },
          ],
        },
        { ...(textChunk('') as object), choices: [{ delta: {}, finish_reason: 'length', index: 0 }] },
        '[DONE]',
      ],
    };
    const { result, server, cwd } = await runCli({ inProcess: true, server: { replies: [cutCall, text('I will write it again, shorter.')] },
      args: ['-p', '--yes', 'write notes'],
      key: KEY,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 2);
    assert.match(toolResultText(requestAt(server, 1), 'call_cut'), /finish reason: length.*Re-issue the call complete/);
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync(`${cwd}/notes.txt`), false, 'the cut-off call never ran');
  });

  test('a step with no text and no tool calls says so, naming the finish reason; exit 1', TIMEOUT, async () => {
    const { result, server } = await runCli({ inProcess: true, server: { replies: [text('')] }, args: ['-p', 'hello'], key: KEY });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.deepEqual(lines(result.stderr).map((line) => line.replace(/^\W+\s*/, '')), [
      'The model returned no answer (finish reason: stop). Try again or rephrase.',
    ]);
    assert.equal(server.requests.length, 1);
  });
});

describe('thinking control', () => {
  const sent = async (args: string[], env: Record<string, string> = {}) => {
    const { result, server } = await runCli({ inProcess: true, server: { replies: [text('ok')] }, args: ['-p', ...args, 'hi'], key: KEY, env });
    assert.equal(result.code, 0, result.stderr);
    return requestAt(server, 0).body ?? {};
  };

  test('--think sends enable_thinking: true and --no-think false for a hybrid model', TIMEOUT, async () => {
    const [on, off, auto] = await Promise.all([sent(['--think']), sent(['--no-think']), sent([])]);
    assert.equal(on.enable_thinking, true);
    assert.equal(off.enable_thinking, false);
    assert.equal('enable_thinking' in auto, false, 'auto leaves the model its default');
  });

  test('--thinking-budget sends thinking_budget; SYLVAN_THINKING=off turns it off', TIMEOUT, async () => {
    const [budget, variable] = await Promise.all([sent(['--thinking-budget', '2048']), sent([], { SYLVAN_THINKING: 'off' })]);
    assert.equal(budget.enable_thinking, true);
    assert.equal(budget.thinking_budget, 2048);
    assert.equal(variable.enable_thinking, false);
  });

  test('a thinking-only model (qwq-plus) always thinks: --no-think sends no enable_thinking', TIMEOUT, async () => {
    const body = await sent(['-m', 'qwq-plus', '--no-think']);
    assert.equal('enable_thinking' in body, false);
  });

  test('a bad SYLVAN_THINKING or budget is one line and exit 2', TIMEOUT, async () => {
    const { result } = await runCli({ inProcess: true, server: { replies: [] }, args: ['-p', '--thinking-budget', '1e3', 'hi'], key: KEY });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--thinking-budget must be a whole number from 1 to/);
  });
});
