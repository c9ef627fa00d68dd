import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { contentText } from '../helpers/chat-requests.ts';
import { text, toolCalls, type RecordedRequest, type Reply } from '../helpers/dashscope-server.ts';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

// A subagent's requests are the parent turn's: they count against its budgets in requests and money.

const KEY = 'sk-sylvan-subagent-budgets-41c9';
/** qwen-plus on DashScope's mainland endpoint: ¥0.8 per million input tokens, ¥2 per million output. */
const ENV = { SYLVAN_MODEL: 'qwen-plus' };

const isSubagent = (request: RecordedRequest): boolean => /subagent, started by another agent/.test(contentText(request.body?.messages?.[0]?.content));
const hasToolResult = (request: RecordedRequest): boolean => request.body?.messages?.some((message) => message.role === 'tool') === true;
const task = (agent: string) => toolCalls([{ id: 'call_task', name: 'task', arguments: { description: 'sum things', prompt: 'add up the numbers', subagent_type: agent } }], { usage: { promptTokens: 1_000, completionTokens: 10 } });

describe("a subagent's requests count against the parent turn's budgets", CLI_TEST_TIMEOUT, () => {
  test('a session request budget reached by a subagent stops the parent turn: warned at 80%, the request-budget line, exit 3, nothing more sent', async () => {
    let subagentSteps = 0;
    const respond = (request: RecordedRequest): Reply => {
      // The subagent would go on calculating, a different sum each step.
      if (isSubagent(request)) return toolCalls([{ id: `call_sum_${++subagentSteps}`, name: 'calculate', arguments: { expression: `${subagentSteps} * 17` } }]);
      return hasToolResult(request) ? text('Done.') : task('general');
    };
    const { server, result } = await runCli({ inProcess: true, server: { respond }, key: KEY, env: { ...ENV, SYLVAN_SESSION_REQUEST_BUDGET: '5' }, args: ['-p', 'delegate the sums'] });
    assert.equal(result.code, 3, result.stderr);
    // The parent's request, then the subagent's four: the fifth reaches the budget, and neither goes on.
    assert.equal(server.requests.filter(isSubagent).length, 4);
    assert.equal(server.requests.length, 5);
    // The warning is the session's: a line of its own, not folded away under the subagent's line.
    assert.match(result.stderr, /^\(80% of the session request budget used: 4 of 5 requests\)$/m);
    assert.match(result.stderr, /Stopped: this session reached its session request budget \(5 of 5 requests\); raise it with --session-request-budget/);
  });

  test("a turn cost budget counts a subagent's cost, priced at the subagent's own model", async () => {
    const cwd = tempWorkspace('sylvan-subagent-budgets-');
    mkdirSync(join(cwd, '.sylvan', 'agents'), { recursive: true });
    writeFileSync(
      join(cwd, '.sylvan', 'agents', 'counter.md'),
      ['---', 'name: counter', 'description: Counts things carefully.', 'model: qwen-max', '---', '', 'You count things.', ''].join('\n'),
    );
    const respond = (request: RecordedRequest): Reply => {
      // 5,000 in and 250 out: ¥0.0144 at qwen-max's ¥2.4/¥9.6, but only ¥0.0045 at the parent's qwen-plus.
      if (isSubagent(request)) return text('Counted: 42.', { usage: { promptTokens: 5_000, completionTokens: 250 } });
      return hasToolResult(request) ? text('There are 42.') : task('counter');
    };
    const { server, result } = await runCli({ inProcess: true, server: { respond }, key: KEY, cwd, env: ENV, args: ['-p', 'count them', '--turn-cost-budget', '0.01'] });
    assert.equal(result.code, 3, result.stderr);
    const sub = server.requests.find(isSubagent);
    assert.equal(sub?.body?.model, 'qwen-max', 'the subagent asked its own model');
    // ¥0.00082 for the parent's request (1,000 in, 10 out at qwen-plus) and ¥0.0144 for the subagent's.
    assert.match(result.stderr, /Stopped: this turn reached its turn cost budget \(¥0\.0152 of ¥0\.0100\); raise it with --turn-cost-budget/);
    assert.equal(server.requests.length, 2, 'the parent sent nothing after its subagent spent the budget');
  });
});
