import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cut, startDashScopeServer, text, type ChatMessage, type CutEnd, type DashScopeServer, type RecordedRequest, type Reply } from '../helpers/dashscope-server.ts';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { runCli } from '../helpers/cli.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';

// An answer is whole only once its end marker arrived (a finish reason, or [DONE]). A stream that
// stops before it — the connection reset, or the body ended cleanly without one — keeps what arrived
// on screen and ends the turn with one line saying so; only whole steps enter the history, so the
// next request carries the user's message and not the partial answer. Nothing shown yet: sent again.

/** Three chunks of text (the server streams six characters a chunk). */
const THREE_CHUNKS = 'One, two, three.';
const CUT_LINE = /^✗ The connection to \S+ was cut off before the answer ended; what arrived is shown but not kept for the model\. Say "continue" to have it answer again\.$/;
const ENDED_LINE =
  /^✗ \S+ ended its stream before the answer ended \(no finish reason, no \[DONE\]\); what arrived is shown but not kept for the model\. Say "continue" to have it answer again\.$/;

const serve = async (respond: (request: RecordedRequest, index: number) => Reply): Promise<DashScopeServer> =>
  closeAtEnd(await startDashScopeServer({ respond }));

const nonEmptyLines = (output: string): string[] => output.split('\n').filter((line) => line.trim() !== '');

/** The one line on stderr, with no stack and no raw error. */
function oneLine(stderr: string): string {
  const lines = nonEmptyLines(stderr);
  assert.equal(lines.length, 1, `expected one line on stderr, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at |\b\w*Error:/m);
  return lines[0] ?? '';
}

const contentOf = (message: ChatMessage): string =>
  typeof message.content === 'string' ? message.content : Array.isArray(message.content) ? message.content.map((part: { text?: string }) => part.text ?? '').join('') : '';

describe('an answer cut short in print mode', { concurrency: true }, () => {
  for (const [end, line] of [
    ['reset', CUT_LINE],
    ['close', ENDED_LINE],
  ] as const satisfies ReadonlyArray<readonly [CutEnd, RegExp]>) {
    test(`three chunks, then the ${end === 'reset' ? 'connection reset' : 'body ended without a finish reason or [DONE]'}: all three shown, one line, exit 1`, CLI_TEST_TIMEOUT, async () => {
      const server = await serve(() => cut(THREE_CHUNKS, undefined, end));
      const result = await runCli({ inProcess: true, args: ['-p', 'count to three'], env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '2' }) });

      assert.equal(result.stdout, `${THREE_CHUNKS}\n`, 'every chunk that arrived is on stdout, the line ended');
      assert.match(oneLine(result.stderr), line);
      assert.equal(result.code, 1);
      assert.equal(server.requests.length, 1, 'text was shown, so the request is not sent again');
    });
  }

  test('the same over an OpenAI-compatible server: the clean end without a marker is not taken for a whole answer', CLI_TEST_TIMEOUT, async () => {
    const server = await serve(() => cut(THREE_CHUNKS, undefined, 'close'));
    const env = { SYLVAN_PROVIDER: 'openai', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.baseURL, SYLVAN_MAX_RETRIES: '0' };
    const result = await runCli({ inProcess: true, args: ['-p', 'count to three'], env });

    assert.equal(result.stdout, `${THREE_CHUNKS}\n`);
    assert.match(oneLine(result.stderr), ENDED_LINE);
    assert.equal(result.code, 1);
  });

  test('a call whose arguments were cut off is neither shown nor run', CLI_TEST_TIMEOUT, async () => {
    const server = await serve(() => cut('Let me work it out.', [{ name: 'calculate', arguments: { expression: '6*7' } }], 'close'));
    const result = await runCli({ inProcess: true, args: ['-p', 'what is 6*7?'], env: dashscopeEnv(server) });

    assert.equal(result.stdout, 'Let me work it out.\n');
    assert.match(oneLine(result.stderr), ENDED_LINE, 'no line for the call, no result');
    assert.equal(result.code, 1);
    assert.equal(server.requests.length, 1);
  });

  test('a finish reason without [DONE] is a whole answer', CLI_TEST_TIMEOUT, async () => {
    const server = await serve(() => ({ kind: 'raw', chunks: [
      { choices: [{ index: 0, delta: { role: 'assistant', content: 'Done' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: '.' }, finish_reason: 'stop' }] },
    ] }));
    const result = await runCli({ inProcess: true, args: ['-p', 'finish'], env: dashscopeEnv(server) });

    assert.equal(result.stderr, '');
    assert.equal(result.stdout, 'Done.\n');
    assert.equal(result.code, 0);
  });

  for (const end of ['reset', 'close'] as const) {
    test(`cut short (${end}) before any text: sent again, and the second answer is the turn's`, CLI_TEST_TIMEOUT, async () => {
      const server = await serve((_request, index) => (index === 0 ? cut('', undefined, end) : text('Second try.')));
      const result = await runCli({ inProcess: true, args: ['-p', 'hello'], env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '1' }) });

      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, 'Second try.\n');
      assert.equal(server.requests.length, 2);
    });
  }
});

describe('the REPL after an answer cut short', { concurrency: true }, () => {
  for (const end of ['reset', 'close'] as const) {
    test(`(${end}) "continue" is sent with the question, without the partial answer`, CLI_TEST_TIMEOUT, async () => {
      const first = 'count to three';
      const server = await serve((_request, index) => (index === 0 ? cut(THREE_CHUNKS, undefined, end) : text('One, two, three, four.')));
      const result = await runCli({ inProcess: true, env: dashscopeEnv(server), stdin: `${first}\ncontinue\n` });

      assert.match(result.stdout, new RegExp(`${THREE_CHUNKS.replace(/[.,]/g, '\\$&')}\\n`), 'what arrived stays on screen');
      assert.match(result.stdout, end === 'reset' ? /cut off before the answer ended/ : /ended its stream before the answer ended/);
      assert.match(result.stdout, /One, two, three, four\./);
      const followUp = server.requests[1];
      assert.ok(followUp, `"continue" was sent; stdout:\n${result.stdout}`);
      assert.equal(followUp.invalid, undefined, 'the conversation after the cut is accepted');
      const messages = (followUp.body?.messages ?? []).filter((message) => message.role !== 'system');
      assert.deepEqual(
        messages.map((message) => [message.role, contentOf(message)]),
        [['user', first], ['user', 'continue']],
        'only whole steps entered the history: the partial answer is not sent back',
      );
      assert.equal(result.code, 0);
    });
  }
});
