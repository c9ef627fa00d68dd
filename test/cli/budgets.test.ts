import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { toolResultText } from '../helpers/chat-requests.ts';
import { text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const KEY = 'sk-sylvan-budgets-test-3a7e';
/** A model with a known mainland price: qwen-plus, ¥0.8 per million input tokens and ¥2 per million output. */
const ENV = { SYLVAN_MODEL: 'qwen-plus' };
/** ¥0.0045 a request at qwen-plus's mainland price: 5,000 × ¥0.8 + 250 × ¥2, per million. */
const usage = { promptTokens: 5_000, completionTokens: 250 };

/** A model that would go on calling the calculator, a different sum each time, for `count` steps. */
const calculating = (count: number): Reply[] =>
  Array.from({ length: count }, (_, index) => toolCalls([{ id: `call_sum_${index}`, name: 'calculate', arguments: { expression: `${index * 7} * ${index + 3} - sqrt(${index + 1})` } }], { usage }));

describe('budgets in money, requests and time', CLI_TEST_TIMEOUT, () => {
  test('a session cost budget of ¥0.01 stops the turn at the request that crosses it, warned once at 80%, exit 3 in print mode', async () => {
    const { server, result } = await runCli({ inProcess: true, server: { replies: calculating(8) }, key: KEY, env: ENV, args: ['-p', 'keep calculating', '--session-cost-budget', '0.01'] });
    assert.equal(result.code, 3, result.stderr);
    // ¥0.0045, ¥0.0090 (90%: warned), ¥0.0135: the third request crosses ¥0.01 and no fourth is sent.
    assert.equal(server.requests.length, 3);
    assert.match(result.stderr, /^\(90% of the session cost budget used: ¥0\.0090 of ¥0\.0100\)$/m);
    assert.equal(result.stderr.match(/% of the session cost budget used/g)?.length, 1);
    assert.match(
      result.stderr,
      /Stopped: this session reached its session cost budget \(¥0\.0135 of ¥0\.0100\); raise it with --session-cost-budget, SYLVAN_SESSION_COST_BUDGET or "sessionCostBudget" in settings\./,
    );
  });

  test("--json's turn-end carries the turn's cost, in CNY on DashScope's mainland endpoint", async () => {
    const replies = [...calculating(1), text('Done.', { usage: { ...usage, cachedTokens: 1_000 } })];
    const { result } = await runCli({ inProcess: true, server: { replies }, key: KEY, env: ENV, args: ['--json', 'one sum'] });
    assert.equal(result.code, 0, result.stderr);
    const end = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).find((event) => event.type === 'turn-end');
    const cost = end?.cost as { currency: string; turn: number; session: number; cachedShare: number; saved: number };
    assert.equal(cost.currency, 'CNY');
    // 9,000 fresh + 1,000 implicit hits at 20% of ¥0.8, and 500 out at ¥2, per million.
    assert.ok(Math.abs(cost.turn - (9_000 * 0.8 + 1_000 * 0.8 * 0.2 + 500 * 2) / 1e6) < 1e-9, JSON.stringify(cost));
    assert.equal(cost.session, cost.turn);
    assert.equal(cost.cachedShare, 0.1);
    assert.ok(Math.abs(cost.saved - (1_000 * 0.8 * 0.8) / 1e6) < 1e-9);
  });

  test('a session request budget stops the turn after the request that reaches it', async () => {
    const { server, result } = await runCli({ inProcess: true, server: { replies: calculating(8) }, key: KEY, env: { ...ENV, SYLVAN_SESSION_REQUEST_BUDGET: '2' }, args: ['-p', 'keep calculating'] });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(server.requests.length, 2);
    assert.match(result.stderr, /Stopped: this session reached its session request budget \(2 of 2 requests\); raise it with --session-request-budget/);
  });

  test('a turn time budget stops the turn once its wall-clock time is spent', async () => {
    // A slow server: each answer takes 700 ms, so a 1-second budget is spent by the second request.
    const respond = async (_request: unknown, index: number): Promise<Reply> => {
      await delay(700);
      return calculating(index + 1)[index]!;
    };
    const { server, result } = await runCli({ inProcess: true, server: { respond }, key: KEY, env: ENV, args: ['-p', 'keep calculating', '--turn-time-budget', '1'] });
    assert.equal(result.code, 3, result.stderr);
    assert.ok(server.requests.length >= 1 && server.requests.length <= 2, `${server.requests.length} requests`);
    assert.match(result.stderr, /Stopped: this turn reached its turn time budget \([0-9.]+ of 1 s\); raise it with --turn-time-budget/);
  });

  test('a turn time budget ends a request that would outlast it', async () => {
    const started = Date.now();
    const { result } = await runCli({ inProcess: true, server: { replies: [{ kind: 'hang', headers: true }] }, key: KEY, env: ENV, args: ['-p', 'wait', '--turn-time-budget', '1', '--timeout', '120'] });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /Stopped: this turn reached its turn time budget \([0-9.]+ of 1 s\)/);
    assert.ok(Date.now() - started < 30_000, 'not left to the 120-second step timeout');
  });

  test("a folder's .env and .sylvan/settings.json cannot raise a budget the user set", async () => {
    const cwd = tempWorkspace('sylvan-budgets-');
    mkdirSync(join(cwd, '.sylvan'));
    writeFileSync(join(cwd, '.sylvan', 'settings.json'), JSON.stringify({ sessionRequestBudget: 50 }));
    writeFileSync(join(cwd, '.env'), 'SYLVAN_SESSION_REQUEST_BUDGET=100\n');
    const { server, result } = await runCli({ inProcess: true, server: { replies: calculating(8) }, key: KEY, cwd, env: { ...ENV, SYLVAN_SESSION_REQUEST_BUDGET: '2' }, args: ['-p', 'keep calculating'] });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(server.requests.length, 2);
  });

  test("a folder's settings cannot raise the step limit or the token budget, only lower them", async () => {
    const cwd = tempWorkspace('sylvan-budgets-');
    mkdirSync(join(cwd, '.sylvan'));
    writeFileSync(join(cwd, '.sylvan', 'settings.json'), JSON.stringify({ maxSteps: 50 }));
    const home = join(cwd, '.sylvan-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ maxSteps: 2 }));
    const raised = await runCli({ inProcess: true, server: { replies: calculating(8) }, key: KEY, cwd, env: { ...ENV, SYLVAN_HOME: home }, args: ['-p', 'keep calculating'] });
    assert.equal(raised.result.code, 3, raised.result.stderr);
    assert.equal(raised.server.requests.length, 2, "the user's own limit of 2 steps held");
    assert.match(raised.result.stderr, /maxSteps in .*\.sylvan\/settings\.json was ignored: a folder may lower this limit, not raise it; 2 stays/);
    writeFileSync(join(cwd, '.sylvan', 'settings.json'), JSON.stringify({ maxSteps: 1 }));
    const lowered = await runCli({ inProcess: true, server: { replies: calculating(8) }, key: KEY, cwd, env: { ...ENV, SYLVAN_MAX_STEPS: '4' }, args: ['-p', 'keep calculating'] });
    assert.equal(lowered.result.code, 3, lowered.result.stderr);
    assert.equal(lowered.server.requests.length, 1, 'the folder lowered it to 1');
  });

  test('a folder may lower a budget, and the line says where to raise it', async () => {
    const cwd = tempWorkspace('sylvan-budgets-');
    mkdirSync(join(cwd, '.sylvan'));
    writeFileSync(join(cwd, '.sylvan', 'settings.json'), JSON.stringify({ sessionRequestBudget: 1 }));
    const { server, result } = await runCli({ inProcess: true, server: { replies: calculating(8) }, key: KEY, cwd, env: { ...ENV, SYLVAN_SESSION_REQUEST_BUDGET: '5' }, args: ['-p', 'keep calculating'] });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(server.requests.length, 1);
    assert.match(result.stderr, /the folder lowered it \(sessionRequestBudget in .*\.sylvan\/settings\.json\); raise it there\./);
  });

  test('the session file keeps the running cost: --continue resumes it against the session budget', async () => {
    const cwd = tempWorkspace('sylvan-budgets-');
    const first = await runCli({ inProcess: true, server: { replies: [...calculating(1), text('Done.', { usage })] }, key: KEY, cwd, env: ENV, args: ['-p', 'two requests'] });
    assert.equal(first.result.code, 0, first.result.stderr);
    // ¥0.0090 spent; the resumed session's budget of ¥0.01 is crossed by its first request.
    const second = await runCli({ inProcess: true, server: { replies: calculating(4) }, key: KEY, cwd, env: ENV, args: ['-p', 'more', '--continue', '--session-cost-budget', '0.01'] });
    assert.equal(second.result.code, 3, second.result.stderr);
    assert.equal(second.server.requests.length, 1);
    assert.match(second.result.stderr, /session cost budget \(¥0\.0135 of ¥0\.0100\)/);
  });

  test('a model with no known price says so once, and the money budget does not apply to it', async () => {
    const replies = [...calculating(2), text('Done.', { usage })];
    const { result } = await runCli({ inProcess: true, server: { replies }, key: KEY, env: { SYLVAN_MODEL: 'my-own-model' }, args: ['-p', 'sums', '--turn-cost-budget', '0.000001'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr.match(/no price is known for my-own-model: the money budgets do not apply to it/g)?.length, 1);
  });

  test("a price in the user's settings replaces the catalogue's", async () => {
    const cwd = tempWorkspace('sylvan-budgets-');
    const home = join(cwd, 'home');
    mkdirSync(home);
    // ¥100 per million input tokens: 5,000 tokens cost ¥0.5, past the ¥0.1 turn budget at once.
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ prices: { 'qwen-plus': { input: 100, output: 0 } } }));
    const { server, result } = await runCli({ inProcess: true, server: { replies: calculating(4) }, key: KEY, cwd, env: { ...ENV, SYLVAN_HOME: home }, args: ['-p', 'sums', '--turn-cost-budget', '0.1'] });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(server.requests.length, 1);
    assert.match(result.stderr, /this turn reached its turn cost budget \(¥0\.5000 of ¥0\.1000\)/);
  });
});

describe('the circuit breaker', CLI_TEST_TIMEOUT, () => {
  test('a model that only changes a number each step is told once, then stopped with repeated-call', async () => {
    const replies = Array.from({ length: 12 }, (_, index) => toolCalls([{ id: `call_${index}`, name: 'calculate', arguments: { expression: `${index + 1} + 1` } }]));
    const { server, result } = await runCli({ inProcess: true, server: { replies }, key: KEY, env: ENV, args: ['--json', 'count up'] });
    assert.equal(result.code, 3, result.stderr);
    // The sixth near-identical call is answered with a warning; the seventh is refused and ends the turn.
    assert.equal(server.requests.length, 7);
    assert.match(toolResultText(server.requests[6]!, 'call_5'), /\[Sylvan: this is step 6 of this turn calling calculate with nearly the same arguments/);
    const end = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { stopReason: string; message: string };
    assert.equal(end.stopReason, 'repeated-call');
    assert.match(end.message, /^Stopped \(near-identical\): the model called calculate in 7 steps with arguments that differ only in numbers or spacing/);
  });

  test('a model alternating between two calls is told once, then stopped when it goes round again', async () => {
    const replies = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0
        ? toolCalls([{ id: `call_${index}`, name: 'calculate', arguments: { expression: '6 * 7' } }])
        : toolCalls([{ id: `call_${index}`, name: 'current_time', arguments: {} }]),
    );
    const { server, result } = await runCli({ inProcess: true, server: { replies }, key: KEY, env: ENV, args: ['-p', 'go round'] });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(server.requests.length, 5);
    assert.match(toolResultText(server.requests[4]!, 'call_3'), /\[Sylvan: your last steps repeat the same cycle \(calculate → current_time\)/);
    assert.match(result.stderr, /Stopped \(cycle\): the model kept repeating a cycle of 2 steps \(calculate → current_time\) after being told/);
  });

  test('a model retrying a failing command in other words is told once, then stopped', async () => {
    const commands = ['test -f missing.txt', 'test -e missing.txt', '[ -f missing.txt ]', 'test -r missing.txt', 'test -s missing.txt', 'test -d missing.txt'];
    const replies = commands.map((command, index) => toolCalls([{ id: `call_${index}`, name: 'run_command', arguments: { command } }]));
    const { server, result } = await runCli({ inProcess: true, server: { replies }, key: KEY, env: ENV, args: ['-p', 'retry', '--yes'] });
    assert.equal(result.code, 3, result.stderr);
    // The third failure is answered with a warning; the fourth, after it, ends the turn.
    assert.equal(server.requests.length, 4);
    assert.match(toolResultText(server.requests[3]!, 'call_2'), /\[Sylvan: run_command has now failed the same way 3 times in this turn/);
    assert.match(result.stderr, /Stopped \(same-failure\): run_command failed the same way 4 times, and the model kept retrying after being told/);
  });

  test('a model whose steps bring nothing new is told once, then stopped', async () => {
    // Different commands, the same output every time.
    const commands = ['echo same', "echo 'same'", 'echo "same"', "printf 'same\\n'", 'echo same;', 'true && echo same', 'echo same | cat', ': ; echo same'];
    const replies = commands.map((command, index) => toolCalls([{ id: `call_${index}`, name: 'run_command', arguments: { command } }]));
    const { server, result } = await runCli({ inProcess: true, server: { replies }, key: KEY, env: ENV, args: ['-p', 'say same', '--yes'] });
    assert.equal(result.code, 3, result.stderr);
    // Step 1 is new; steps 2-5 bring nothing: the fifth result carries the note, and step 6 ends the turn.
    assert.equal(server.requests.length, 6);
    assert.match(toolResultText(server.requests[5]!, 'call_4'), /\[Sylvan: the last 4 steps brought no new result and no new text/);
    assert.match(result.stderr, /going round in circles/);
    assert.match(result.stderr, /Stopped \(no-progress\): 5 steps in a row brought no new result or text, after the model was told/);
  });

  test('a long task that reads, pages and computes different things runs to its end', async () => {
    const cwd = tempWorkspace('sylvan-budgets-');
    writeFileSync(join(cwd, 'notes.txt'), Array.from({ length: 400 }, (_, line) => `line ${line + 1}`).join('\n'));
    writeFileSync(join(cwd, 'other.txt'), 'other\n');
    const calls = [
      { name: 'list_files', arguments: { path: '.' } },
      ...[1, 81, 161, 241, 321].map((offset) => ({ name: 'read_file', arguments: { path: 'notes.txt', offset, limit: 80 } })),
      { name: 'read_file', arguments: { path: 'other.txt' } },
      { name: 'search_files', arguments: { pattern: 'line 39' } },
      { name: 'calculate', arguments: { expression: '400 / 80' } },
      { name: 'calculate', arguments: { expression: 'sqrt(400)' } },
      { name: 'current_time', arguments: {} },
      { name: 'list_files', arguments: { path: '.', recursive: true } },
    ];
    const replies = [...calls.map((call, index) => toolCalls([{ id: `call_${index}`, ...call }])), text('All read.')];
    const { server, result } = await runCli({ inProcess: true, server: { replies }, key: KEY, cwd, env: ENV, args: ['-p', 'read everything', '--max-steps', '20'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, calls.length + 1);
    assert.doesNotMatch(result.stderr, /Sylvan:|going round in circles/);
  });
});
