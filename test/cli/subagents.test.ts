import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { assertEveryRequestValid, contentText, toolResultText } from '../helpers/chat-requests.ts';
import { text, toolCalls, type RecordedRequest, type Reply } from '../helpers/dashscope-server.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const KEY = 'sk-sylvan-subagents-5d1e';

const systemOf = (request: RecordedRequest): string => contentText(request.body?.messages?.[0]?.content);
const toolsOf = (request: RecordedRequest): string[] => (request.body?.tools ?? []).map((tool) => tool.function.name).sort();
const lastUser = (request: RecordedRequest): string => contentText(request.body?.messages?.findLast((message) => message.role === 'user')?.content);
const isSubagent = (request: RecordedRequest): boolean => /subagent, started by another agent/.test(systemOf(request));

const task = (id: string, agent: string, prompt: string) => ({ id, name: 'task', arguments: { description: `look for ${prompt}`, prompt, subagent_type: agent } });

/** Holds every caller until `count` have arrived (or `ms` passed, so a test that fails says so instead of hanging). */
function barrier(count: number, ms = 20_000) {
  const waiting: (() => void)[] = [];
  let arrived = 0;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    for (const wake of waiting.splice(0)) wake();
  }, ms);
  return {
    get timedOut() {
      return timedOut;
    },
    async arrive(): Promise<void> {
      arrived++;
      if (arrived >= count) {
        clearTimeout(timer);
        for (const wake of waiting.splice(0)) wake();
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
}

describe('subagents through the task tool', { timeout: 90_000 }, () => {
  test('three task calls in one step run at once, each with its own system prompt and only its tools, and the parent reads one bounded answer per call', async () => {
    const together = barrier(3);
    const long = 'x'.repeat(50_000);
    const { server, result } = await runCli({ inProcess: true, server: {
        respond: async (request): Promise<Reply> => {
          if (isSubagent(request)) {
            // Each subagent's first request waits here until all three have been sent: they overlap in time.
            await together.arrive();
            return text(`found ${lastUser(request)} ${long}`, { chunkSize: 10_000 });
          }
          if (request.body?.messages?.some((message) => message.role === 'tool')) return text('All three found.');
          return toolCalls([task('call_a', 'explore', 'alpha'), task('call_b', 'explore', 'beta'), task('call_c', 'explore', 'gamma')]);
        },
      }, key: KEY, args: ['-p', 'find three things'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(together.timedOut, false, 'the three subagents\' requests were not all in flight at once');
    const subagentRequests = server.requests.filter(isSubagent);
    assert.equal(subagentRequests.length, 3);
    for (const request of subagentRequests) {
      assert.match(systemOf(request), /You are explore, a read-only search agent/);
      // explore's tools as far as this session offers them: web_search has no backend here.
      assert.deepEqual(toolsOf(request), ['list_files', 'read_file', 'search_files', 'web_fetch']);
    }
    const parentFollowUp = server.requests.find((request) => !isSubagent(request) && request.body?.messages?.some((message) => message.role === 'tool'));
    assert.ok(parentFollowUp, 'the parent went on after its subagents');
    for (const [id, word] of [['call_a', 'alpha'], ['call_b', 'beta'], ['call_c', 'gamma']] as const) {
      const answer = toolResultText(parentFollowUp, id);
      assert.match(answer, /^explore · 1 step · /);
      assert.match(answer, new RegExp(`found ${word} x`));
      assert.ok(answer.length < 13_000, `the result of ${id} is ${answer.length} characters`);
      assert.match(answer, /the first 12,000 are shown/);
    }
    assert.doesNotMatch(systemOf(parentFollowUp), /subagent, started by another agent/);
    assertEveryRequestValid(server);
  });

  test('an agent file from .claude/agents works unchanged: its prompt, its Claude Code tool names mapped, an unsupported field named once', async () => {
    const cwd = tempWorkspace();
    mkdirSync(join(cwd, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      join(cwd, '.claude', 'agents', 'reviewer.md'),
      ['---', 'name: reviewer', 'description: Reviews code for bugs. Use after a change.', 'tools: Read, Grep, Glob', 'model: inherit', 'color: blue', '---', '', 'You are a careful code reviewer. Report bugs only.', ''].join('\n'),
    );
    const { server, result } = await runCli({ inProcess: true, server: {
        respond: (request) => {
          if (isSubagent(request)) return text('No bugs.');
          if (request.body?.messages?.some((message) => message.role === 'tool')) return text('Reviewed.');
          return toolCalls([task('call_r', 'reviewer', 'the diff')]);
        },
      }, key: KEY, cwd, args: ['-p', 'review'] });
    assert.equal(result.code, 0, result.stderr);
    const parentFirst = server.requests[0]!;
    const taskTool = parentFirst.body?.tools?.find((tool) => tool.function.name === 'task');
    assert.match(String(taskTool?.function.description), /- reviewer: Reviews code for bugs/);
    const sub = server.requests.find(isSubagent);
    assert.ok(sub);
    assert.match(systemOf(sub), /^You are a careful code reviewer\. Report bugs only\./);
    assert.deepEqual(toolsOf(sub), ['list_files', 'read_file', 'search_files']);
    assert.match(result.stderr, /\.claude\/agents\/reviewer\.md: color not supported by Sylvan, ignored/);
    assert.equal(result.stderr.match(/color not supported/g)?.length, 1);
  });

  test('plan mode gives a subagent no tool that writes or runs, even the general one', async () => {
    const { server, result } = await runCli({ inProcess: true, server: {
        respond: (request) => {
          if (isSubagent(request)) return text('Planned.');
          if (request.body?.messages?.some((message) => message.role === 'tool')) return text('The plan.');
          return toolCalls([task('call_g', 'general', 'a plan')]);
        },
      }, key: KEY, args: ['-p', '--mode', 'plan', 'plan it'] });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(server.requests[0]!.body?.tools?.some((tool) => tool.function.name === 'task'), 'plan mode offers task');
    const sub = server.requests.find(isSubagent);
    assert.ok(sub);
    const offered = toolsOf(sub);
    assert.ok(offered.includes('read_file'), offered.join(', '));
    for (const changing of ['write_file', 'edit_file', 'run_command', 'task']) assert.ok(!offered.includes(changing), `${changing} offered: ${offered.join(', ')}`);
  });

  test('--json lines carry the subagent id on each of its events', async () => {
    const { result } = await runCli({ inProcess: true, server: {
        respond: (request) => {
          if (isSubagent(request)) return text('Found it.');
          if (request.body?.messages?.some((message) => message.role === 'tool')) return text('Done.');
          return toolCalls([task('call_j', 'explore', 'it')]);
        },
      }, key: KEY, args: ['-p', '--json', 'find it'] });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const tagged = lines.filter((line) => line.agentId !== undefined);
    assert.ok(tagged.length >= 3, result.stdout);
    assert.ok(tagged.every((line) => line.agentId === 'explore-1' && line.agent === 'explore' && line.parentToolCallId === 'call_j'));
    const said = tagged.filter((line) => line.type === 'text-delta').map((line) => line.text).join('');
    assert.equal(said, 'Found it.');
    assert.ok(tagged.some((line) => line.type === 'turn-end' && line.stopReason === 'completed'));
    const parentEnd = lines.at(-1);
    assert.equal(parentEnd?.type, 'turn-end');
    assert.equal(parentEnd?.agentId, undefined);
  });

  test('a fork\'s first request repeats the parent\'s last request before adding its own instruction', async () => {
    const { server, result } = await runCli({ inProcess: true, server: {
        respond: (request) => {
          if (/You are a fork/.test(lastUser(request))) return text('Fork done.');
          if (request.body?.messages?.at(-1)?.role === 'tool') return text('Done.');
          return toolCalls([{ id: 'call_f', name: 'task', arguments: { description: 'carry on', prompt: 'carry on', subagent_type: 'general', fork: true } }]);
        },
      }, key: KEY, args: ['-p', 'delegate'] });
    assert.equal(result.code, 0, result.stderr);
    const [parent, fork] = server.requests;
    assert.ok(parent?.body && fork?.body);
    assert.match(lastUser(fork), /You are a fork[\s\S]*carry on/);
    assert.deepEqual(fork.body.tools, parent.body.tools);
    const sent = parent.body.messages ?? [];
    // The parent's messages unchanged but for the cache marker, which moves to the end of each request.
    assert.deepEqual((fork.body.messages ?? []).slice(0, sent.length).map((message) => [message.role, contentText(message.content)]), sent.map((message) => [message.role, contentText(message.content)]));
    assert.equal(fork.body.messages?.[sent.length]?.role, 'assistant');
  });

  test('the turn\'s token budget counts its subagents; the session file keeps each subagent\'s conversation linked to its call', async () => {
    const cwd = tempWorkspace();
    const { server, result } = await runCli({ inProcess: true, server: {
        respond: (request) => {
          if (isSubagent(request)) return text('Big answer.', { usage: { promptTokens: 5_000, completionTokens: 10 } });
          if (request.body?.messages?.some((message) => message.role === 'tool')) return text('Done.');
          return toolCalls([task('call_b', 'explore', 'budget')], { usage: { promptTokens: 100, completionTokens: 10 } });
        },
      }, key: KEY, cwd, args: ['-p', '--token-budget', '1000', 'spend'] });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /budget/);
    assert.equal(server.requests.filter((request) => !isSubagent(request)).length, 1, 'the parent stopped after the step whose subagent spent the budget');
    const sessions = join(cwd, '.sylvan-home', 'sessions');
    const file = readdirSync(sessions).find((name) => name.endsWith('.jsonl'));
    assert.ok(file, `no session file in ${sessions}`);
    const entries = readFileSync(join(sessions, file), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const subagentEntries = entries.filter((entry) => entry.type === 'subagent-message');
    assert.ok(subagentEntries.length >= 2, JSON.stringify(entries.map((entry) => entry.type)));
    assert.ok(subagentEntries.every((entry) => entry.toolCallId === 'call_b' && entry.agentId === 'explore-1' && entry.agent === 'explore'));
    assert.match(JSON.stringify(subagentEntries.at(-1)), /Big answer\./);
  });

  test('/usage lists what each subagent of the session used; /export folds each subagent\'s own conversation under its call', async () => {
    const cwd = tempWorkspace();
    const { result } = await runCli({ inProcess: true, server: {
        respond: (request) => {
          if (isSubagent(request)) return text('Found it in sylvan.json.', { usage: { promptTokens: 1_234, completionTokens: 56 } });
          if (request.body?.messages?.some((message) => message.role === 'tool')) return text('Done.');
          return toolCalls([task('call_u', 'explore', 'the config')]);
        },
      }, key: KEY, cwd, stdin: 'find the config\n/usage\n/export\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /subagents \(included above\):\n\s+explore-1 look for the config: 1,234 input · 56 output · 0 cached · 1 step\n/);
    const exported = readdirSync(cwd).find((name) => /^sylvan-session-.*\.md$/.test(name));
    assert.ok(exported, result.stdout);
    const markdown = readFileSync(join(cwd, exported), 'utf8');
    assert.match(markdown, /<summary>subagent explore-1: its own conversation<\/summary>[\s\S]*#### Prompt\s+the config[\s\S]*#### explore-1\s+Found it in sylvan\.json\./);
  });
});
