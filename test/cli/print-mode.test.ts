import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { assertEveryRequestValid, conversationOf, requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { httpError, text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';
import { filesContaining } from '../helpers/files-containing.ts';
import { runCli, type CliOptions, type CliResult, type ServerRun } from '../helpers/cli.ts';

const KEY = 'sk-sylvan-print-test-5f1c9e';
// web_fetch is offered with no search key; web_search only with a backend (test/cli/web.test.ts).
const ALL_TOOLS = ['calculate', 'current_time', 'edit_file', 'get_weather', 'list_files', 'read_file', 'run_command', 'search_files', 'task', 'todo_write', 'web_fetch', 'write_file'];

/** Runs the CLI against a loopback DashScope scripted with `replies`, accepting only KEY. */
const runAgainstServer = (replies: Reply[], options: CliOptions = {}): Promise<ServerRun> =>
  runCli({ inProcess: true, server: { replies }, ...options, key: KEY });

function assertKeyNeverShown(result: CliResult, key = KEY): void {
  assert.ok(!result.stdout.includes(key), 'the API key appeared on stdout');
  assert.ok(!result.stderr.includes(key), 'the API key appeared on stderr');
}

const ROUND_TRIP_PROMPT = '(2+3)*4 等于多少？';
const roundTrip = runAgainstServer(
  [
    toolCalls([{ id: 'call_calc_1', name: 'calculate', arguments: { expression: '(2+3)*4' } }], { continuationName: 'empty' }),
    text('(2+3)*4 的结果是 20。', { chunkSize: 3 }),
  ],
  { args: ['-p', ROUND_TRIP_PROMPT] },
);

// Qwen often says what it is about to do before calling tools.
const PREAMBLE = '我先算一下，再查天气。';
const TWO_CALLS_ANSWER = '2^10 = 1024；北京今天晴。';
const twoCalls = runAgainstServer(
  [
    toolCalls([
      { id: 'call_power', name: 'calculate', arguments: { expression: '2^10' } },
      { id: 'call_weather', name: 'get_weather', arguments: { city: '北京' } },
    ], { text: PREAMBLE }),
    text(TWO_CALLS_ANSWER),
  ],
  { args: ['-p', '算一下 2^10，再看看北京天气'], env: { SYLVAN_WEATHER: 'sample' } },
);

const badCalls = runAgainstServer(
  [
    toolCalls([
      { id: 'call_schema', name: 'calculate', arguments: { expr: 1 } },
      { id: 'call_malformed', name: 'calculate', arguments: '{"expression": "1+' },
      { id: 'call_unknown', name: 'launch_rocket', arguments: { target: 'moon' } },
    ]),
    text('这些调用都失败了。'),
  ],
  { args: ['-p', '试试这些工具'] },
);

const STDIN_PROMPT = '现在几点？\n请用中文回答。';
// Throttled once first (retry-after-ms: 0, so no wait): the retry is an event line of its own.
const jsonFromStdin = runAgainstServer(
  [httpError(429, { headers: { 'retry-after-ms': '0' } }), toolCalls([{ id: 'call_clock', name: 'current_time', arguments: {} }]), text('现在是下午。')],
  { args: ['-p', '--json'], stdin: `${STDIN_PROMPT}\n`, env: { SYLVAN_MAX_RETRIES: '3' } },
);

const WRONG_KEY = 'sk-wrong-key-leak-check-8d2e';
const wrongKey = runCli({ inProcess: true, server: { replies: [text('unreachable')] }, key: 'sk-the-right-key', args: ['-p', 'hi'], env: { DASHSCOPE_API_KEY: WRONG_KEY, SYLVAN_DEBUG: '1' } }).then((run) => ({ ...run, key: WRONG_KEY }));

const offline = runCli({ inProcess: true, args: ['-p', '(2+3)*4 等于多少？'] });

const badUsage = [
  { name: 'an unknown flag', options: { args: ['--frobnicate'] }, mentions: /--frobnicate/ },
  { name: '--max-steps abc', options: { args: ['-p', '--max-steps', 'abc', 'hi'] }, mentions: /--max-steps.*"abc"/ },
  { name: 'SYLVAN_PROVIDER=nope', options: { args: ['-p', 'hi'], env: { SYLVAN_PROVIDER: 'nope' } }, mentions: /"nope"/ },
  { name: 'a question without -p', options: { args: ['hello'] }, mentions: /"hello".*sylvan -p/ },
].map((usage) => ({ ...usage, run: runCli({ inProcess: true, ...usage.options }) }));

const help = runCli({ inProcess: true, args: ['--help'] });
const version = runCli({ inProcess: true, args: ['--version'] });

describe('sylvan -p: one tool round trip against DashScope', () => {
  test('the first request starts with the system prompt, then the question, and offers every tool', CLI_TEST_TIMEOUT, async () => {
    const { server } = await roundTrip;
    const first = requestAt(server, 0);
    assert.equal(first.body?.messages?.[0]?.role, 'system');
    assert.match(String(first.body?.messages?.[0]?.content), /Sylvan/);
    assert.deepEqual(conversationOf(first), [{ role: 'user', content: ROUND_TRIP_PROMPT }]);
    assert.deepEqual(first.body?.tools?.map((tool) => tool.function.name).sort(), ALL_TOOLS);
    assert.equal(first.headers.authorization, `Bearer ${KEY}`);
  });

  test('the second request replays the call and answers it with a tool message holding 20', CLI_TEST_TIMEOUT, async () => {
    const { server } = await roundTrip;
    assert.equal(server.requests.length, 2);
    const second = requestAt(server, 1);
    const assistant = conversationOf(second)[1];
    assert.equal(assistant?.role, 'assistant');
    assert.equal(assistant.tool_calls?.length, 1);
    assert.equal(assistant.tool_calls?.[0]?.id, 'call_calc_1');
    assert.equal(assistant.tool_calls?.[0]?.function.name, 'calculate');
    assert.deepEqual(JSON.parse(assistant.tool_calls?.[0]?.function.arguments ?? ''), { expression: '(2+3)*4' });
    assert.match(toolResultText(second, 'call_calc_1'), /\b20\b/);
    assertEveryRequestValid(server);
  });

  test('stdout is the answer alone, stderr shows the call and its result, exit 0, the key is never shown nor saved', CLI_TEST_TIMEOUT, async () => {
    const { result, cwd } = await roundTrip;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '(2+3)*4 的结果是 20。\n');
    assert.match(result.stderr, /calculate\(expression: "\(2\+3\)\*4"\)/);
    assert.match(result.stderr, /\(2\+3\)\*4 = 20/);
    assertKeyNeverShown(result);
    assert.notDeepEqual(filesContaining(cwd, 'call_calc_1'), [], 'no session transcript was saved to check');
    assert.deepEqual(filesContaining(cwd, KEY), []);
  });
});

describe('sylvan -p: several tool calls in one step', () => {
  test('two calls in one step are both run and both answered in the next request', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await twoCalls;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    const second = requestAt(server, 1);
    assert.match(toolResultText(second, 'call_power'), /1024/);
    assert.match(toolResultText(second, 'call_weather'), /Beijing/);
    assert.match(result.stderr, /calculate\(expression: "2\^10"\)/);
    assert.match(result.stderr, /get_weather\(city: "北京"\)/);
    assert.ok(result.stdout.startsWith(PREAMBLE), result.stdout);
    assert.ok(result.stdout.endsWith(`${TWO_CALLS_ANSWER}\n`), result.stdout);
    assertKeyNeverShown(result);
  });

  test(
    'text streamed before the tool calls does not run into the answer on stdout',
    CLI_TEST_TIMEOUT,
    async () => {
      const { result } = await twoCalls;
      assert.ok(result.stdout.split('\n').includes(TWO_CALLS_ANSWER), JSON.stringify(result.stdout));
    },
  );
});

describe('sylvan -p: broken tool calls go back to the model as errors', () => {
  test('a schema violation, malformed JSON and an unknown tool each get an error result; the turn completes', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await badCalls;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    const second = requestAt(server, 1);
    assert.match(toolResultText(second, 'call_schema'), /error/i);
    assert.match(toolResultText(second, 'call_schema'), /expression/);
    assert.match(toolResultText(second, 'call_malformed'), /JSON/);
    assert.match(toolResultText(second, 'call_unknown'), /launch_rocket/);
    assert.equal(result.stdout, '这些调用都失败了。\n');
    assert.equal(result.stderr.match(/✗/g)?.length, 3, result.stderr);
    assertKeyNeverShown(result);
  });
});

describe('sylvan -p --json with the question on stdin', () => {
  test('the whole of stdin is the question', CLI_TEST_TIMEOUT, async () => {
    const { server } = await jsonFromStdin;
    assertEveryRequestValid(server);
    assert.deepEqual(conversationOf(requestAt(server, 0)), [{ role: 'user', content: STDIN_PROMPT }]);
  });

  test('stdout is one JSON event per line, the retry, the call and its result included, ending with turn-end', CLI_TEST_TIMEOUT, async () => {
    const { result } = await jsonFromStdin;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.ok(result.stdout.endsWith('\n'));
    const events = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(events.at(-1), { ...events.at(-1), type: 'turn-end', stopReason: 'completed' });
    assert.equal(events.filter((event) => event.type === 'turn-end').length, 1);
    assert.ok(events.some((event) => event.type === 'tool-call' && event.toolCallId === 'call_clock'));
    assert.ok(events.some((event) => event.type === 'tool-result' && event.toolCallId === 'call_clock'));
    assert.deepEqual(events.filter((event) => event.type === 'retry'), [{ type: 'retry', attempt: 1, maxRetries: 3, delayMs: 0, reason: 'rate-limited', status: 429 }]);
    const answer = events.flatMap((event) => (event.type === 'text-delta' ? [String(event.text)] : [])).join('');
    assert.equal(answer, '现在是下午。');
    assertKeyNeverShown(result);
  });
});

describe('sylvan -p: failures and usage', () => {
  test('a rejected key is one line naming the variable, exit 1, and the key is never echoed (even with SYLVAN_DEBUG=1)', CLI_TEST_TIMEOUT, async () => {
    const { server, key, result } = await wrongKey;
    assert.equal(result.code, 1, result.stderr);
    assert.equal(server.requests[0]?.headers.authorization, `Bearer ${key}`);
    assert.match(result.stderr, /rejected the API key \(401\).*DASHSCOPE_API_KEY/);
    assert.equal(result.stdout, '');
    assertKeyNeverShown(result, key);
  });

  test('with no key the offline mock model answers (2+3)*4 with 20', CLI_TEST_TIMEOUT, async () => {
    const result = await offline;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\b20\b/);
    assert.match(result.stderr, /calculate/);
  });

  for (const usage of badUsage) {
    test(`bad usage (${usage.name}) exits 2 with one line on stderr`, CLI_TEST_TIMEOUT, async () => {
      const result = await usage.run;
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, '');
      const lines = result.stderr.split('\n').filter((line) => line !== '');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] ?? '', /^sylvan: /);
      assert.match(lines[0] ?? '', usage.mentions);
    });
  }

  test('--help prints the usage and exits 0', CLI_TEST_TIMEOUT, async () => {
    const result = await help;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Usage: sylvan/);
    assert.match(result.stdout, /-p, --print/);
    assert.equal(result.stderr, '');
  });

  test('--version prints the package version and exits 0', CLI_TEST_TIMEOUT, async () => {
    const result = await version;
    const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${packageJson.version}\n`);
    assert.equal(result.stderr, '');
  });
});
