import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { contentText, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls, type RecordedRequest, type Reply } from '../helpers/dashscope-server.ts';

// A subagent meets the user's hooks: SubagentStart and SubagentStop around its run, and the tool
// hooks on each of its calls. Through the CLI (in-process: what was sent and what the hooks read is
// the subject, not the process) against the scripted loopback model, the hooks small shell scripts
// in the workspace.

const KEY = 'sk-hooks-subagents-2b8e';

/** A workspace whose user settings hold `hooks`, with `scripts` as executable files. */
function workspaceWith(hooks: object, scripts: Record<string, string>): string {
  const cwd = tempWorkspace('sylvan-subagent-hooks-');
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(cwd, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(cwd, name), 0o755);
  }
  mkdirSync(join(cwd, '.sylvan-home'), { recursive: true });
  writeFileSync(join(cwd, '.sylvan-home', 'settings.json'), JSON.stringify({ hooks }, null, 2));
  return cwd;
}

const command = (name: string) => ({ type: 'command', command: `"$SYLVAN_PROJECT_DIR"/${name}` });
const systemOf = (request: RecordedRequest): string => contentText(request.body?.messages?.[0]?.content);
const isSubagent = (request: RecordedRequest): boolean => /subagent, started by another agent/.test(systemOf(request));
const isExplore = (request: RecordedRequest): boolean => /You are explore, a read-only search agent/.test(systemOf(request));
const hasToolResult = (request: RecordedRequest): boolean => request.body?.messages?.some((message) => message.role === 'tool') === true;
const firstUser = (request: RecordedRequest): string => contentText(request.body?.messages?.find((message) => message.role === 'user')?.content);
const task = (id: string, agent: string, prompt: string) => ({ id, name: 'task', arguments: { description: `${agent}: ${prompt}`, prompt, subagent_type: agent } });
/** The JSON objects a hook script appended to `file`, one a line. */
const inputs = (cwd: string, file: string): Record<string, unknown>[] =>
  existsSync(join(cwd, file)) ? readFileSync(join(cwd, file), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : [];
/** Appends the hook's stdin (one JSON object) as a line of `file`. */
const record = (file: string) => `{ cat; echo; } >> "$SYLVAN_PROJECT_DIR/${file}"`;

describe("a subagent meets the user's hooks", { timeout: 120_000 }, () => {
  test("a SubagentStart hook matched on the agent type adds context the subagent's first request carries, and reads who the subagent is", async () => {
    const cwd = workspaceWith({ SubagentStart: [{ matcher: 'explore', hooks: [command('start.sh')] }] }, {
      'start.sh': `${record('start.jsonl')}\necho '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"the tests live in spec/, not test/"}}'`,
    });
    const respond = (request: RecordedRequest): Reply => {
      if (isSubagent(request)) return text('Found them.');
      return hasToolResult(request) ? text('Done.') : toolCalls([task('call_e', 'explore', 'find the tests'), task('call_g', 'general', 'find the docs')]);
    };
    const { result, server } = await runCli({ inProcess: true, server: { respond }, key: KEY, cwd, args: ['-p', 'look around'] });
    assert.equal(result.code, 0, result.stderr);
    const explore = server.requests.find(isExplore);
    const general = server.requests.find((request) => isSubagent(request) && !isExplore(request));
    assert.ok(explore && general, 'both subagents asked the model');
    assert.match(firstUser(explore), /^find the tests\n\nthe tests live in spec\/, not test\/$/);
    assert.equal(firstUser(general), 'find the docs', 'the matcher kept the hook from the general subagent');
    const [input, ...more] = inputs(cwd, 'start.jsonl');
    assert.equal(more.length, 0, 'the hook ran once, for explore');
    assert.equal(input?.hook_event_name, 'SubagentStart');
    assert.equal(input?.agent_type, 'explore');
    assert.match(String(input?.agent_id), /^explore-\d+$/);
    assert.ok(typeof input?.session_id === 'string' && input.cwd === cwd);
  });

  test('a SubagentStop hook that exits 2 keeps the subagent going once with its reason; the parent reads the answer that followed', async () => {
    const cwd = workspaceWith({ SubagentStop: [{ hooks: [command('substop.sh')] }], Stop: [{ hooks: [command('stop.sh')] }] }, {
      'substop.sh': `input=$(cat)\necho "$input" >> "$SYLVAN_PROJECT_DIR/substop.jsonl"\nif echo "$input" | grep -q '"stop_hook_active":true'; then exit 0; fi\necho "name the file you found it in" >&2\nexit 2`,
      'stop.sh': record('stop.jsonl'),
    });
    const respond = (request: RecordedRequest): Reply => {
      if (isSubagent(request)) return hasToolResult(request) || JSON.stringify(request.body?.messages).includes('name the file') ? text('Found it in config/app.json.') : text('Found it.');
      return hasToolResult(request) ? text('Done.') : toolCalls([task('call_s', 'explore', 'find the config')]);
    };
    const { result, server } = await runCli({ inProcess: true, server: { respond }, key: KEY, cwd, args: ['-p', 'find the config'] });
    assert.equal(result.code, 0, result.stderr);
    const subagentRequests = server.requests.filter(isSubagent);
    assert.equal(subagentRequests.length, 2, 'one answer, one continuation');
    assert.match(JSON.stringify(subagentRequests[1]!.body?.messages), /A SubagentStop hook did not let the subagent end yet: name the file you found it in/);
    const parentFollowUp = server.requests.find((request) => !isSubagent(request) && hasToolResult(request));
    assert.ok(parentFollowUp);
    assert.match(toolResultText(parentFollowUp, 'call_s'), /Found it in config\/app\.json\./);
    const [first, second, ...rest] = inputs(cwd, 'substop.jsonl');
    assert.equal(rest.length, 0);
    assert.equal(first?.hook_event_name, 'SubagentStop');
    assert.equal(first?.agent_type, 'explore');
    assert.equal(first?.stop_hook_active, false);
    assert.equal(first?.last_assistant_message, 'Found it.');
    assert.equal(second?.stop_hook_active, true);
    // Stop is the parent's: it ran once, when the parent's turn ended, and never for the subagent.
    assert.deepEqual(inputs(cwd, 'stop.jsonl').map((input) => [input.hook_event_name, input.agent_id]), [['Stop', undefined]]);
  });

  test('a SubagentStop hook that always objects is bounded', async () => {
    const cwd = workspaceWith({ SubagentStop: [{ matcher: 'explore', hooks: [command('never.sh')] }] }, { 'never.sh': 'cat > /dev/null\necho "not yet" >&2\nexit 2' });
    const respond = (request: RecordedRequest): Reply => {
      if (isSubagent(request)) return text('Found it.');
      return hasToolResult(request) ? text('Done.') : toolCalls([task('call_n', 'explore', 'find it')]);
    };
    const { result, server } = await runCli({ inProcess: true, server: { respond }, key: KEY, cwd, args: ['-p', '--json', 'find it'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.filter(isSubagent).length, 4, 'the first answer and three continuations');
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const notices = events.filter((event) => event.type === 'notice' && event.agentId !== undefined).map((event) => event.message);
    assert.deepEqual(notices.at(-1), '(a SubagentStop hook asked to keep going again; the subagent ends after 3 continuations)');
    assert.deepEqual(events.at(-1)?.stopReason, 'completed', "the parent's turn went on to its end");
  });

  test("a PreToolUse deny blocks a subagent's run_command, its model reads the reason, and the hook knows the call is the subagent's", async () => {
    const cwd = workspaceWith({ PreToolUse: [{ matcher: 'Bash', hooks: [command('guard.sh')] }] }, {
      'guard.sh': `${record('pre.jsonl')}\necho "subagents may not run commands" >&2\nexit 2`,
    });
    const respond = (request: RecordedRequest): Reply => {
      if (isSubagent(request)) return hasToolResult(request) ? text('I could not run it.') : toolCalls([{ id: 'call_run', name: 'run_command', arguments: { command: 'touch ran.txt' } }]);
      return hasToolResult(request) ? text('Done.') : toolCalls([task('call_t', 'general', 'touch a file')]);
    };
    const { result, server } = await runCli({ inProcess: true, server: { respond }, key: KEY, cwd, args: ['--yes', '-p', 'touch it'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(cwd, 'ran.txt')), false, 'the command did not run');
    const subagentFollowUp = server.requests.find((request) => isSubagent(request) && hasToolResult(request));
    assert.ok(subagentFollowUp, "the subagent's model was asked again");
    assert.match(toolResultText(subagentFollowUp, 'call_run'), /A PreToolUse hook blocked this call: subagents may not run commands/);
    const [input, ...more] = inputs(cwd, 'pre.jsonl');
    assert.equal(more.length, 0);
    assert.equal(input?.tool_name, 'run_command');
    assert.deepEqual(input?.tool_input, { command: 'touch ran.txt' });
    assert.equal(input?.agent_type, 'general');
    assert.match(String(input?.agent_id), /^general-\d+$/);
  });
});
