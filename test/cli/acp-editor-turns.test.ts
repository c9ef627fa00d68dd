import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { answerText, startAcpClient, type AcpClient, type AcpClientOptions } from '../helpers/acp-client.ts';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { startDashScopeServer, text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';
import { withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { runCliTimed } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

// `sylvan --acp` driven by the ACP SDK's own client side, as an editor drives it, against a
// loopback DashScope that plays the model's part.

async function editor(replies: Reply[], options: AcpClientOptions = {}) {
  const server = closeAtEnd(await startDashScopeServer({ replies }));
  const acp = await startAcpClient({ ...options, env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0', ...options.env }) });
  const { sessionId } = await acp.agent.request('session/new', { cwd: acp.cwd, mcpServers: [] });
  return { server, acp, sessionId };
}

/** The session's updates with chunks of one kind in a row counted once, and the bookkeeping ones left out. */
function flow(acp: AcpClient, sessionId: string): string[] {
  const shown: string[] = [];
  for (const { update } of acp.updates.filter((notification) => notification.sessionId === sessionId)) {
    if (update.sessionUpdate === 'usage_update' || update.sessionUpdate === 'available_commands_update') continue;
    const shownAs = label(update);
    if (shown.at(-1) !== shownAs) shown.push(shownAs);
  }
  return shown;
}

function label(update: SessionUpdate): string {
  if (update.sessionUpdate === 'tool_call') return `tool_call ${update.kind} ${update.title}`;
  if (update.sessionUpdate === 'tool_call_update') return `tool_call_update ${update.status}`;
  return update.sessionUpdate;
}

const toolUpdates = (acp: AcpClient) => acp.updates.map(({ update }) => update).filter((update) => update.sessionUpdate === 'tool_call_update');

describe('sylvan --acp driven by an editor', { timeout: 90_000 }, () => {
  test('a prompt streams the text, the tool call and its result in order, and ends the turn', async (context) => {
    const { acp, sessionId } = await editor([toolCalls([{ id: 'call_r', name: 'read_file', arguments: { path: 'hello.txt' } }], { text: 'Let me look.' }), text('It says hi.')]);
    context.after(() => acp.close());
    writeFileSync(join(acp.cwd, 'hello.txt'), 'hi\n');
    const response = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'what does hello.txt say?' }] });
    assert.equal(response.stopReason, 'end_turn');
    assert.deepEqual(flow(acp, sessionId), ['agent_message_chunk', 'tool_call read read_file hello.txt', 'tool_call_update completed', 'agent_message_chunk']);
    assert.equal(answerText(acp.updates, sessionId), 'Let me look.It says hi.');
    const call = acp.updates.map(({ update }) => update).find((update) => update.sessionUpdate === 'tool_call');
    assert.deepEqual(call && 'locations' in call && call.locations, [{ path: join(acp.cwd, 'hello.txt') }]);
    assert.deepEqual(call && 'rawInput' in call && call.rawInput, { path: 'hello.txt' });
  });

  test('a write asks session/request_permission, and a rejection leaves the disk as it was', async (context) => {
    const { acp, sessionId, server } = await editor([toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'changed\n' } }]), text('Not written.')]);
    context.after(() => acp.close());
    writeFileSync(join(acp.cwd, 'notes.txt'), 'original\n');
    const response = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'change notes.txt' }] });
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(acp.permissions.length, 1);
    assert.deepEqual(acp.permissions[0]!.options.map((option) => option.kind), ['allow_once', 'allow_always', 'reject_once']);
    assert.equal(acp.permissions[0]!.toolCall.toolCallId, 'call_w');
    assert.equal(readFileSync(join(acp.cwd, 'notes.txt'), 'utf8'), 'original\n');
    assert.equal(toolUpdates(acp).at(-1)?.status, 'failed');
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /rejected/);
  });

  test('a permission request the editor cancels is a no', async (context) => {
    const { acp, sessionId, server } = await editor([toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'changed\n' } }]), text('Not written.')], {
      answer: () => 'cancelled',
    });
    context.after(() => acp.close());
    writeFileSync(join(acp.cwd, 'notes.txt'), 'original\n');
    await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'change notes.txt' }] });
    assert.equal(acp.permissions.length, 1);
    assert.equal(readFileSync(join(acp.cwd, 'notes.txt'), 'utf8'), 'original\n');
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /dismissed the question or stopped the turn; nothing was run/);
  });

  test("allow_always covers the next call of the same scope, and only that scope", async (context) => {
    const run = (id: string, command: string) => toolCalls([{ id, name: 'run_command', arguments: { command } }]);
    const { acp, sessionId } = await editor([run('call_1', 'ls -a'), run('call_2', 'ls -l'), run('call_3', 'pwd'), text('Done.')], {
      answer: (request) => ((request.toolCall.rawInput as { command?: string }).command === 'ls -a' ? 'allow_always' : 'reject_once'),
    });
    context.after(() => acp.close());
    await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run things' }] });
    assert.deepEqual(acp.permissions.map((request) => (request.toolCall.rawInput as { command: string }).command), ['ls -a', 'pwd']);
    const always = acp.permissions[0]!.options.find((option) => option.kind === 'allow_always');
    assert.match(always?.name ?? '', /`ls …`/);
    const finished = toolUpdates(acp).filter((update) => update.status === 'completed' || update.status === 'failed');
    assert.deepEqual(finished.map((update) => `${update.toolCallId} ${update.status}`), ['call_1 completed', 'call_2 completed', 'call_3 failed']);
  });

  test('session/cancel during a running command stops it, and the turn returns cancelled', async (context) => {
    const marker = `sleep 41.${process.pid}`;
    const { acp, sessionId } = await editor([toolCalls([{ id: 'call_s', name: 'run_command', arguments: { command: `echo started; ${marker}` } }]), text('Never reached.')], {
      answer: () => 'allow_once',
    });
    context.after(() => acp.close());
    const prompt = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait a while' }] });
    await withDeadline(
      (async () => {
        while (!toolUpdates(acp).some((update) => update.status === 'in_progress' && JSON.stringify(update.content).includes('started'))) await new Promise((resolve) => setImmediate(resolve));
      })(),
      30_000,
      "the command's first output reaching the editor",
    );
    const stoppedAt = performance.now();
    await acp.agent.notify('session/cancel', { sessionId });
    const response = await withDeadline(prompt, 20_000, 'the prompt to end after session/cancel');
    assert.equal(response.stopReason, 'cancelled');
    assert.ok(performance.now() - stoppedAt < 20_000);
    assert.deepEqual(processesRunning(marker), [], 'the command is still running');
  });

  test('session/load replays a session the REPL wrote, and the next prompt continues it', async (context) => {
    const cwd = tempWorkspace('sylvan-acp-');
    writeFileSync(join(cwd, 'hello.txt'), 'hi\n');
    const first = closeAtEnd(await startDashScopeServer({ replies: [toolCalls([{ id: 'call_r', name: 'read_file', arguments: { path: 'hello.txt' } }]), text('It says hi.')] }));
    const repl = await runCliTimed({ cwd, stdin: 'what does hello.txt say?\n', env: dashscopeEnv(first, { SYLVAN_MAX_RETRIES: '0' }) });
    assert.equal(repl.code, 0, repl.stderr);
    const [file] = readdirSync(join(cwd, '.sylvan-home', 'sessions')).filter((name) => name.endsWith('.jsonl'));
    const savedId = file!.replace(/\.jsonl$/, '');

    const server = closeAtEnd(await startDashScopeServer({ replies: [text('Still hi.')] }));
    const acp = await startAcpClient({ cwd, env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }) });
    context.after(() => acp.close());
    await acp.agent.request('session/load', { sessionId: savedId, cwd, mcpServers: [] });
    assert.deepEqual(flow(acp, savedId), ['user_message_chunk', 'tool_call read read_file hello.txt', 'tool_call_update completed', 'agent_message_chunk']);
    assert.equal(answerText(acp.updates, savedId), 'It says hi.');
    await acp.agent.request('session/prompt', { sessionId: savedId, prompt: [{ type: 'text', text: 'and now?' }] });
    const sent = JSON.stringify(requestAt(server, 0).body?.messages);
    assert.match(sent, /what does hello\.txt say\?/);
    assert.match(sent, /It says hi\./);
  });

  test('set_mode to plan is announced, and a write in plan mode is refused without asking', async (context) => {
    const { acp, sessionId, server } = await editor([toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'plan.txt', content: 'x\n' } }]), text('I will plan instead.')], {
      answer: () => 'allow_once',
    });
    context.after(() => acp.close());
    await acp.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    const announced = acp.updates.map(({ update }) => update).find((update) => update.sessionUpdate === 'current_mode_update');
    assert.equal(announced && 'currentModeId' in announced && announced.currentModeId, 'plan');
    await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write plan.txt' }] });
    assert.equal(acp.permissions.length, 0);
    assert.equal(existsSync(join(acp.cwd, 'plan.txt')), false);
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /plan mode/);
    const offered = (requestAt(server, 0).body?.tools ?? []).map((tool) => tool.function.name);
    assert.ok(!offered.includes('write_file'), 'plan mode still offered write_file');
  });

  test('/undo is offered as a command and reverses the files the last turn changed', async (context) => {
    const { acp, sessionId } = await editor([toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'changed\n' } }]), text('Changed.')], {
      answer: () => 'allow_once',
    });
    context.after(() => acp.close());
    writeFileSync(join(acp.cwd, 'notes.txt'), 'original\n');
    await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'change notes.txt' }] });
    assert.equal(readFileSync(join(acp.cwd, 'notes.txt'), 'utf8'), 'changed\n');
    const offered = acp.updates.map(({ update }) => update).find((update) => update.sessionUpdate === 'available_commands_update');
    assert.ok(offered && 'availableCommands' in offered && offered.availableCommands.some((command) => command.name === 'undo'), '/undo is not offered');
    const response = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/undo' }] });
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(readFileSync(join(acp.cwd, 'notes.txt'), 'utf8'), 'original\n');
    assert.match(answerText(acp.updates, sessionId), /notes\.txt: restored/);
  });

  test("with the client's fs, a read returns the editor's buffer and a write goes to the editor, not the disk", async (context) => {
    const buffers = new Map<string, string>();
    const { acp, sessionId, server } = await editor(
      [
        toolCalls([{ id: 'call_r', name: 'read_file', arguments: { path: 'draft.txt' } }]),
        toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'draft.txt', content: 'from the model\n' } }]),
        text('Done.'),
      ],
      { buffers, answer: () => 'allow_once' },
    );
    context.after(() => acp.close());
    const draft = join(acp.cwd, 'draft.txt');
    writeFileSync(draft, 'saved on disk\n');
    buffers.set(draft, 'unsaved in the editor\n');
    await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'rewrite draft.txt' }] });
    const read = toolResultText(requestAt(server, 1), 'call_r');
    assert.match(read, /unsaved in the editor/);
    assert.doesNotMatch(read, /saved on disk/);
    assert.deepEqual(acp.writes, [{ path: draft, content: 'from the model\n' }]);
    assert.equal(readFileSync(draft, 'utf8'), 'saved on disk\n');
  });
});

/** Pids of processes whose command line holds `marker`. */
function processesRunning(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(marker) && Number(entry) !== process.pid) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
