import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startDashScopeServer, text, type DashScopeServer, type Reply } from '../helpers/dashscope-server.ts';
import { fixtureMessage as messageOf, providerErrorReply as replyOf } from '../helpers/provider-error-fixtures.ts';
import { closeAtEnd } from '../helpers/served.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';

// Issue 23, section 1, through the CLI (in-process: `runCli({ inProcess: true })`, test/helpers/cli.ts): the cases the issue
// names, replayed through `sylvan -p` against the loopback server, which counts the requests (so a retry shows). Every
// reply carries `retry-after: 0`: a retry costs no time. Each body's source is in
// test/fixtures/provider-errors/README.md; every fixture, in-process: test/providers/error-meaning.test.ts.


const KEY = 'sk-meaning-test';
const TIMEOUT = { timeout: 60_000 };

interface Run {
  server: DashScopeServer;
  result: CliResult;
}

/** `sylvan -p` as the OpenAI-compatible provider against a loopback server; two retries allowed. */
function runAgainst(replies: Reply[], model: string): Promise<Run> {
  const run = (async () => {
    const server = closeAtEnd(await startDashScopeServer({ replies, apiKey: KEY }));
    const result = await runCli({ inProcess: true,
      args: ['-p', '-m', model, 'hello'],
      env: { SYLVAN_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.baseURL, SYLVAN_MAX_RETRIES: '2' },
    });
    return { server, result };
  })();
  run.catch(() => {});
  return run;
}

/** One clean line on stderr, no stack or raw dump. */
function oneLine(stderr: string): string {
  const all = stderr.split('\n').filter((line) => line.trim() !== '');
  assert.equal(all.length, 1, `expected one line on stderr, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at |\b\w*Error:|Type validation/m, 'no stack or raw dump');
  return (all[0] ?? '').replace(/^\W+\s*/, '');
}

/** The server's message appears exactly once (its first 40 characters, as the line clips long ones). */
function saysOnce(line: string, message: string): void {
  const head = message.replace(/\s+/g, ' ').slice(0, 40);
  assert.equal(line.split(head).length - 1, 1, `the server's message once in: ${line}`);
}

interface Case {
  name: string;
  fixture: string;
  model: string;
  /** What the scripted server answers, in order; anything after the error is never wanted. */
  replies: Reply[];
  requests: number;
  exit: number;
  line?: RegExp;
  never?: RegExp;
}

const CONTEXT_ADVICE = /Sylvan assumed a window of 32,768 tokens \(SYLVAN_CONTEXT_TOKENS\); \/compact summarises the conversation, \/clear starts over\.$/;

const zhipu = replyOf('zhipu_1113_balance_zh');
const llama = replyOf('llamacpp_context_500');
const sglang = replyOf('sglang_context_frame');
const cases: Case[] = [
  {
    name: 'Zhipu 1113 in Chinese as a 429 (余额不足): a balance problem, one request, never "rate-limiting"',
    fixture: 'zhipu_1113_balance_zh',
    model: 'glm-4.6',
    replies: [zhipu, zhipu, zhipu, text('never')],
    requests: 1,
    exit: 1,
    line: /^Your account cannot use glm-4\.6 \(429 1113\) \(余额不足或无可用资源包,请充值。\)\. Top up or enable it in the provider's console, or pick another model with \/model\.$/,
    never: /rate-limiting|Wait a minute|tries/,
  },
  {
    name: 'llama.cpp "Context size has been exceeded." as a 500: too long, not retried, not a passing server fault',
    fixture: 'llamacpp_context_500',
    model: 'local-model',
    replies: [llama, llama, llama, text('never')],
    requests: 1,
    exit: 1,
    line: /^The conversation is too long for local-model \(500 server_error\) \(Context size has been exceeded\.\)\. /,
    never: /server's side|try again in a moment|tries/,
  },
  {
    name: 'an OpenAI-style server_error as the first frame of a 200 stream is retried like a 500, and then answers',
    fixture: 'azure_server_error_frame',
    model: 'gpt-4o',
    replies: [replyOf('azure_server_error_frame'), replyOf('azure_server_error_frame'), text('Recovered.')],
    requests: 3,
    exit: 0,
  },
  {
    name: "SGLang's context-length error inside a 200 stream: too long, never \"Try again.\"",
    fixture: 'sglang_context_frame',
    model: 'Qwen3-32B',
    replies: [sglang, sglang, sglang, text('never')],
    requests: 1,
    exit: 1,
    line: /^The conversation is too long for Qwen3-32B \(400\) \(The input \(61709 tokens\) is longer than the model's context length \(40960 tokens\)\.\)\. /,
    never: /Try again\.|tries/,
  },
];

// Every run starts now and they overlap (three processes at a time); each test awaits its own.
const runs = cases.map((entry) => ({ entry, run: runAgainst(entry.replies, entry.model) }));

describe('errors by what they mean, with retries only where they can help', TIMEOUT, () => {
  for (const { entry, run } of runs) {
    test(entry.name, async () => {
      const { result, server } = await run;
      assert.equal(result.code, entry.exit, `exit code; stderr: ${result.stderr}`);
      assert.equal(server.requests.length, entry.requests, 'requests the server received');
      if (entry.exit === 0) {
        assert.equal(result.stdout.trim(), 'Recovered.');
        assert.equal(result.stderr.trim(), '');
        return;
      }
      const line = oneLine(result.stderr);
      if (entry.line) assert.match(line, entry.line);
      if (entry.never) assert.doesNotMatch(line, entry.never);
      saysOnce(line, messageOf(entry.fixture));
      if (entry.fixture.includes('context')) assert.match(line, CONTEXT_ADVICE);
    });
  }
});
