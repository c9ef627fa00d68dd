import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  cut,
  hang,
  httpError,
  startDashScopeServer,
  text,
  toolCalls,
  type ChatMessage,
  type DashScopeServer,
  type DashScopeServerOptions,
  type RecordedRequest,
  type Reply,
} from '../helpers/dashscope-server.ts';
import { killWhenDone } from '../helpers/children.ts';
import { CLI_TEST_TIMEOUT, signal, withDeadline } from '../helpers/deadline.ts';
import { runCli, runCliTimed, startCli, type CliOptions, type ExitedCli } from '../helpers/cli.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';

// Fault injection (issue 4): the CLI against a loopback server that streams the way DashScope does,
// asserting what a user sees — exit code, the one stderr line — and what the server received, down
// to the validity of the conversation sent after a fault. The CLI runs in-process
// (`runCli({ inProcess: true })`, test/helpers/cli.ts), except where the process is the subject: the exit code the built CLI
// exits with, and Ctrl-C as a signal.

const serve = async (options: DashScopeServerOptions): Promise<DashScopeServer> => closeAtEnd(await startDashScopeServer(options));
const dashscope = dashscopeEnv;

/** The CLI run to the end in-process; one that never ends fails the test, saying it hung. */
const timedRun = (options: CliOptions) => runCli({ inProcess: true, ...options });

/** The built CLI run to the end as a process; a run its safety net had to kill fails the test, saying it hung. */
async function processRun(options: CliOptions): Promise<ExitedCli> {
  const result = await runCliTimed(options);
  assert.equal(result.killedBySafetyNet, false, `the CLI never exited by itself (killed by the safety net); stderr:\n${result.stderr}`);
  return result;
}

const nonEmptyLines = (output: string): string[] => output.split('\n').filter((line) => line.trim() !== '');

/** The user-visible error output is one line: no stack frames, no raw `Error:` dumps. */
function assertOneCleanLine(stderr: string): string {
  const lines = nonEmptyLines(stderr);
  assert.equal(lines.length, 1, `expected one line on stderr, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack frames');
  assert.doesNotMatch(stderr, /\b\w*Error:/, 'no raw error dump');
  return lines[0] ?? '';
}

function userTexts(request: RecordedRequest): string[] {
  return (request.body?.messages ?? [])
    .filter((message: ChatMessage) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : Array.isArray(message.content)
          ? message.content.map((part: { text?: string }) => part.text ?? '').join('')
          : '',
    );
}

const lastUserText = (request: RecordedRequest): string | undefined => userTexts(request).at(-1);

const toolMessages = (request: RecordedRequest): ChatMessage[] =>
  (request.body?.messages ?? []).filter((message) => message.role === 'tool');

const repeatCalculation = (): Reply => toolCalls([{ name: 'calculate', arguments: { expression: '1+1' } }]);
const newCalculation = (index: number): Reply => toolCalls([{ name: 'calculate', arguments: { expression: `${index}+1` } }]);


describe('sylvan -p against a faulty DashScope', { concurrency: true }, () => {
  test('a model repeating one call is stopped at the 3rd identical call, which never runs', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({ respond: repeatCalculation });
    const result = await timedRun({ args: ['-p', 'what is 1+1?'], env: dashscope(server) });

    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /calculate \{"expression":"1\+1"\}/, 'the stop line names the call and its arguments');
    assert.match(result.stderr, /3 times with the same arguments/);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(server.requests.map((request) => request.invalid), [undefined, undefined, undefined]);
    assert.equal(result.stderr.match(/⎿ 1\+1 = 2/g)?.length, 2, 'the tool ran exactly twice');
    assert.match(result.stderr, /⎿ denied/, 'the third call is shown as denied');
    assert.equal(toolMessages(server.requests[2]!).length, 2, 'the 3rd request carries the two real results');
  });

  test('a model that never stops calling makes exactly --max-steps requests', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({ respond: (_request, index) => newCalculation(index) });
    const result = await timedRun({ args: ['-p', '--max-steps', '4', 'count up'], env: dashscope(server) });

    assert.equal(result.code, 3, result.stderr);
    assert.equal(server.requests.length, 4);
    assert.ok(server.requests.every((request) => request.invalid === undefined));
    assert.match(result.stderr, /Stopped after 4 steps \(--max-steps/);
  });

  test('a 429 with retry-after: 0, then an answer: completes', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({
      replies: [httpError(429, { headers: { 'retry-after': '0' } }), text('Recovered: 42.')],
    });
    const result = await timedRun({ args: ['-p', 'answer?'], env: dashscope(server, { SYLVAN_MAX_RETRIES: '2' }) });

    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'Recovered: 42.');
    assert.equal(server.requests.length, 2, 'one retry');
    assert.doesNotMatch(result.stderr, /429|✗/);
  });

  const persistent500 = (): Reply => httpError(500, { headers: { 'retry-after': '0' } });

  test('a persistent 500 exits 1 with one line naming the status and the tries', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({ respond: persistent500 });
    const result = await timedRun({ args: ['-p', 'answer?'], env: dashscope(server, { SYLVAN_MAX_RETRIES: '1' }) });

    assert.equal(result.code, 1);
    const line = assertOneCleanLine(result.stderr);
    assert.match(line, /500/);
    assert.match(line, /after 2 tries/);
    assert.equal(server.requests.length, 2, 'the first try and one retry');
    assert.equal(result.stdout, '');
  });

  test('with SYLVAN_DEBUG=1 the same 500 also shows the stack', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({ respond: persistent500 });
    const result = await timedRun({
      args: ['-p', 'answer?'],
      env: dashscope(server, { SYLVAN_MAX_RETRIES: '1', SYLVAN_DEBUG: '1' }),
    });

    assert.equal(result.code, 1);
    assert.match(result.stderr, /500/);
    assert.match(result.stderr, /^\s+at /m, 'stack frames are shown');
  });

  test('a 401 invalid_api_key: the built CLI exits 1 with one line naming DASHSCOPE_API_KEY, without retrying', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({ apiKey: 'the-right-key', replies: [text('never sent')] });
    const result = await processRun({ args: ['-p', 'hello'], env: dashscope(server) });

    assert.equal(result.code, 1);
    const line = assertOneCleanLine(result.stderr);
    assert.match(line, /401/);
    assert.match(line, /DASHSCOPE_API_KEY/);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]?.headers.authorization, 'Bearer test-key');
  });

  test('a base URL where nothing listens exits 1 with one line naming the URL and the tries', CLI_TEST_TIMEOUT, async () => {
    const closed = await startDashScopeServer({ replies: [] });
    await closed.close();
    // One retry costs the SDK's 2 s backoff, hidden behind the slower tests running alongside.
    const result = await timedRun({ args: ['-p', 'hello'], env: dashscope(closed, { SYLVAN_MAX_RETRIES: '1' }) });

    assert.equal(result.code, 1);
    const line = assertOneCleanLine(result.stderr);
    assert.ok(line.includes(closed.baseURL), line);
    assert.match(line, /connection refused/i);
    assert.match(line, /after 2 tries/);
  });

  test('a base URL with a wrong path exits 1 with one line saying 404 and naming the URL', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({ replies: [text('never sent')] });
    const wrongBase = server.baseURL.replace('/compatible-mode/v1', '/wrong/v1');
    const result = await timedRun({ args: ['-p', 'hello'], env: dashscope({ baseURL: wrongBase }) });

    assert.equal(result.code, 1);
    const line = assertOneCleanLine(result.stderr);
    assert.match(line, /404/);
    assert.ok(line.includes(wrongBase) || line.includes('DASHSCOPE_BASE_URL'), line);
    assert.equal(server.requests[0]?.path, '/wrong/v1/chat/completions');
  });

  test('a stream cut mid-answer exits 1 with one clean line, keeping what arrived', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({ respond: () => cut('The answer is forty') });
    const result = await timedRun({ args: ['-p', 'answer?'], env: dashscope(server) });

    assert.equal(result.code, 1);
    assertOneCleanLine(result.stderr);
    assert.equal(result.stdout, 'The answer is forty\n', 'what arrived stays on stdout, line ended');
  });

  test(
    'the line for a stream cut mid-answer says it was cut off',
    CLI_TEST_TIMEOUT,
    async () => {
      const server = await serve({ respond: () => cut('The answer is forty') });
      const result = await timedRun({ args: ['-p', 'answer?'], env: dashscope(server) });

      assert.equal(result.code, 1);
      assert.match(assertOneCleanLine(result.stderr), /cut off/);
      assert.doesNotMatch(result.stderr, /answered 200/);
    },
  );

  for (const [variant, reply] of [
    ['sends nothing', hang()],
    ['sends headers and some text, then nothing', hang({ headers: true, text: 'Thinking about' })],
  ] as const) {
    test(`a server that ${variant} is cut off by --timeout 2`, CLI_TEST_TIMEOUT, async () => {
      const arrival = signal();
      const server = await serve({
        respond: () => {
          arrival.fire();
          return reply;
        },
      });
      const result = await timedRun({ args: ['-p', '--timeout', '2', 'answer?'], env: dashscope(server) });
      // Measured from the request's arrival, so a slow start under a loaded test run does not count;
      // 2 s of timeout plus whatever a starved process needs to print and exit.
      const waitedMs = performance.now() - arrival.firedAt;

      assert.ok(Number.isFinite(arrival.firedAt), `the request never reached the server; stderr:\n${result.stderr}`);
      assert.ok(waitedMs < 20_000, `took ${Math.round(waitedMs)} ms after the request arrived`);
      assert.equal(result.code, 3, result.stderr);
      assert.match(nonEmptyLines(result.stderr).at(-1) ?? '', /within 2 s \(--timeout\)/);
      assert.equal(server.requests.length, 1, 'a timed-out step is not retried');
    });
  }

  test('--token-budget stops a model that keeps calling tools', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({ respond: (_request, index) => newCalculation(index) });
    const result = await timedRun({ args: ['-p', '--token-budget', '50', 'count up'], env: dashscope(server) });

    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /over the budget of 50 \(--token-budget/);
    assert.equal(server.requests.length, 1, 'the first step already spent the budget');
  });

  test('Ctrl-C while the server hangs exits 130', CLI_TEST_TIMEOUT, async (context) => {
    const arrival = signal();
    const server = await serve({
      respond: () => {
        arrival.fire();
        return hang({ headers: true, text: 'Let me' });
      },
    });
    const running = startCli({ args: ['-p', 'answer?'], env: dashscope(server), stdin: '' });
    killWhenDone(context, running.child);
    // Whichever comes first: the request, or the CLI ending without sending it (then the race fails).
    await withDeadline(
      Promise.race([arrival.fired, running.exited.then((exited) => Promise.reject(new Error(`the CLI exited before its request arrived: ${exited.stderr}`)))]),
      60_000,
      'the request to reach the server',
    );
    running.child.kill('SIGINT');
    const result = await withDeadline(running.exited, 60_000, 'the CLI to exit after Ctrl-C');

    assert.equal(result.killedBySafetyNet, false);
    assert.equal(result.code, 130, result.stderr);
    assert.match(result.stderr, /Interrupted/);
  });
});

type Responder = (request: RecordedRequest, index: number) => Reply;

/**
 * The REPL with piped stdin: the first line meets `fault`, the second is answered. Returns the
 * process result and the request made for the second line.
 */
async function replAfterFault(fault: Responder, options: { args?: string[] } = {}) {
  const first = 'first question';
  const second = 'second question';
  const server = await serve({
    respond: (request, index) => (lastUserText(request) === second ? text('Second answer.') : fault(request, index)),
  });
  const result = await timedRun({ args: options.args ?? [], env: dashscope(server), stdin: `${first}\n${second}\n` });
  const followUp = server.requests.find((request) => lastUserText(request) === second);
  return { result, followUp, first };
}

/** `toolResults`: how many tool messages the history should carry from the first turn's whole steps. */
function assertValidFollowUp(outcome: Awaited<ReturnType<typeof replAfterFault>>, toolResults: number): void {
  const { result, followUp, first } = outcome;
  assert.ok(followUp, `the second line was sent; stdout:\n${result.stdout}`);
  assert.equal(followUp.invalid, undefined, 'the conversation after the fault is accepted');
  assert.ok(userTexts(followUp).includes(first), 'the first question stays in the history');
  assert.equal(toolMessages(followUp).length, toolResults, 'only whole steps entered the history');
  assert.match(result.stdout, /Second answer\./);
  assert.equal(result.code, 0, result.stdout);
}

describe('the REPL after a fault sends a valid history', { concurrency: true }, () => {
  test('after the repeated-call guard', CLI_TEST_TIMEOUT, async () => {
    const outcome = await replAfterFault(repeatCalculation);
    assert.match(outcome.result.stdout, /3 times with the same arguments/);
    assertValidFollowUp(outcome, 3); // two results and the denial of the third call
  });

  test('after the step limit', CLI_TEST_TIMEOUT, async () => {
    const outcome = await replAfterFault((_request, index) => newCalculation(index), { args: ['--max-steps', '2'] });
    assert.match(outcome.result.stdout, /Stopped after 2 steps/);
    assertValidFollowUp(outcome, 2);
  });

  test('after a stream cut in the step that follows a tool call', CLI_TEST_TIMEOUT, async () => {
    const outcome = await replAfterFault((_request, index) =>
      index === 0 ? newCalculation(index) : cut('', [{ name: 'calculate', arguments: { expression: '2+2' } }]),
    );
    assert.match(outcome.result.stdout, /^✗ /m, 'the fault is reported');
    assertValidFollowUp(outcome, 1); // the cut step's unfinished call is dropped
  });

  test('after a hang cut off by --timeout', CLI_TEST_TIMEOUT, async () => {
    const outcome = await replAfterFault(
      (_request, index) => (index === 0 ? newCalculation(index) : hang({ headers: true, text: 'Hmm' })),
      { args: ['--timeout', '2'] },
    );
    assert.match(outcome.result.stdout, /--timeout/);
    assertValidFollowUp(outcome, 1);
  });
});
