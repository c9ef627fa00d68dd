import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { RequestPermissionRequest, SessionUpdate } from '@agentclientprotocol/sdk';
import { answerText, startAcpClient, type AcpClient, type AcpClientOptions, type PermissionAnswer } from '../helpers/acp-client.ts';
import { contentText, requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { httpError, startDashScopeServer, text, toolCalls, type DashScopeServer, type RecordedRequest, type Reply } from '../helpers/dashscope-server.ts';
import { eventually, withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { runCliTimed } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

// `sylvan --acp` driven by the ACP SDK's own client side, as an editor drives it, against a
// loopback DashScope that plays the model's part. As an editor keeps one agent for all its chats,
// most tests open a session each in one shared `sylvan --acp`; a session's mode, answers and
// permissions must then stay its own.

/** A folder's session in the shared agent: its model requests, updates and permission requests. */
interface EditorSession {
  acp: AcpClient;
  sessionId: string;
  cwd: string;
  /** The model requests of this session, in order. */
  requests(): RecordedRequest[];
  updates(): SessionUpdate[];
  permissions(): RequestPermissionRequest[];
}

const WORKSPACE_LINE = /The workspace is the folder the user started you in: (\S+)\./;
/** Each session's scripted replies and permission answers, by its folder and its id. */
const scripts = new Map<string, Reply[]>();
const answers = new Map<string, PermissionAnswer>();
const workspaceOf = (request: RecordedRequest): string => WORKSPACE_LINE.exec(contentText(request.body?.messages?.[0]?.content))?.[1] ?? '';
let shared: Promise<{ acp: AcpClient; server: DashScopeServer }> | undefined;

/** The one `sylvan --acp` of the tests that share it (started on first use, closed after them). */
function sharedAgent() {
  shared ??= (async () => {
    const answered = new Map<string, number>();
    const server = closeAtEnd(
      await startDashScopeServer({
        respond: (request) => {
          const workspace = workspaceOf(request);
          const step = answered.get(workspace) ?? 0;
          answered.set(workspace, step + 1);
          return scripts.get(workspace)?.[step] ?? httpError(500, { body: `no scripted reply ${step + 1} for the session in ${workspace || 'an unknown folder'}` });
        },
      }),
    );
    const acp = await startAcpClient({
      env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }),
      answer: (request) => (answers.get(request.sessionId) ?? (() => 'reject_once'))(request),
    });
    return { acp, server };
  })();
  return shared;
}

/** A new session in its own folder of the shared agent, the model answering it with `replies`. */
async function editor(replies: Reply[], options: { answer?: PermissionAnswer } = {}): Promise<EditorSession> {
  const { acp, server } = await sharedAgent();
  const cwd = tempWorkspace('sylvan-acp-');
  scripts.set(cwd, replies);
  const { sessionId } = await acp.agent.request('session/new', { cwd, mcpServers: [] });
  if (options.answer) answers.set(sessionId, options.answer);
  return {
    acp,
    sessionId,
    cwd,
    requests: () => server.requests.filter((request) => workspaceOf(request) === cwd),
    updates: () => acp.updates.filter((notification) => notification.sessionId === sessionId).map(({ update }) => update),
    permissions: () => acp.permissions.filter((request) => request.sessionId === sessionId),
  };
}

/** A session's `index`-th model request, or a failure saying how many there were. */
function requestOf(session: EditorSession, index: number): RecordedRequest {
  const requests = session.requests();
  assert.ok(requests[index], `expected at least ${index + 1} requests in the session, the model saw ${requests.length}`);
  return requests[index]!;
}

/** The model's call that changes notes.txt, which holds "original" until a write runs. */
const changeNotes = () => toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'changed\n' } }]);
const notesIn = (session: EditorSession): string => readFileSync(join(session.cwd, 'notes.txt'), 'utf8');

/** Writes notes.txt as "original" in the session's folder, then asks the session to change it. */
function askToChangeNotes(session: EditorSession) {
  writeFileSync(join(session.cwd, 'notes.txt'), 'original\n');
  return session.acp.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'change notes.txt' }] });
}

/** An agent of its own, for a test that needs the client's fs or a session made before it started. */
async function ownEditor(replies: Reply[], options: AcpClientOptions = {}) {
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

const toolUpdates = (session: { updates(): SessionUpdate[] }) => session.updates().filter((update) => update.sessionUpdate === 'tool_call_update');

describe('sylvan --acp driven by an editor, one session per test in one agent', { timeout: 90_000 }, () => {
  after(async () => {
    await (await shared)?.acp.close();
  });

  test('a prompt streams the text, the tool call and its result in order, and ends the turn', async () => {
    const session = await editor([toolCalls([{ id: 'call_r', name: 'read_file', arguments: { path: 'hello.txt' } }], { text: 'Let me look.' }), text('It says hi.')]);
    const { acp, sessionId } = session;
    writeFileSync(join(session.cwd, 'hello.txt'), 'hi\n');
    const response = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'what does hello.txt say?' }] });
    assert.equal(response.stopReason, 'end_turn');
    assert.deepEqual(flow(acp, sessionId), ['agent_message_chunk', 'tool_call read read_file hello.txt', 'tool_call_update completed', 'agent_message_chunk']);
    assert.equal(answerText(acp.updates, sessionId), 'Let me look.It says hi.');
    const call = session.updates().find((update) => update.sessionUpdate === 'tool_call');
    assert.deepEqual(call && 'locations' in call && call.locations, [{ path: join(session.cwd, 'hello.txt') }]);
    assert.deepEqual(call && 'rawInput' in call && call.rawInput, { path: 'hello.txt' });
  });

  test('a write asks session/request_permission, and a rejection leaves the disk as it was', async () => {
    const session = await editor([changeNotes(), text('Not written.')]);
    const response = await askToChangeNotes(session);
    assert.equal(response.stopReason, 'end_turn');
    const permissions = session.permissions();
    assert.equal(permissions.length, 1);
    assert.deepEqual(permissions[0]!.options.map((option) => option.kind), ['allow_once', 'allow_always', 'reject_once']);
    assert.equal(permissions[0]!.toolCall.toolCallId, 'call_w');
    assert.equal(notesIn(session), 'original\n');
    assert.equal(toolUpdates(session).at(-1)?.status, 'failed');
    assert.match(toolResultText(requestOf(session, 1), 'call_w'), /rejected/);
  });

  test('a permission request the editor cancels is a no', async () => {
    const session = await editor([changeNotes(), text('Not written.')], {
      answer: () => 'cancelled',
    });
    await askToChangeNotes(session);
    assert.equal(session.permissions().length, 1);
    assert.equal(notesIn(session), 'original\n');
    assert.match(toolResultText(requestOf(session, 1), 'call_w'), /dismissed the question or stopped the turn; nothing was run/);
  });

  test("allow_always covers the next call of the same scope, and only that scope", async () => {
    const run = (id: string, command: string) => toolCalls([{ id, name: 'run_command', arguments: { command } }]);
    const session = await editor([run('call_1', 'ls -a'), run('call_2', 'ls -l'), run('call_3', 'pwd'), text('Done.')], {
      answer: (request) => ((request.toolCall.rawInput as { command?: string }).command === 'ls -a' ? 'allow_always' : 'reject_once'),
    });
    const { acp, sessionId } = session;
    await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run things' }] });
    const permissions = session.permissions();
    assert.deepEqual(permissions.map((request) => (request.toolCall.rawInput as { command: string }).command), ['ls -a', 'pwd']);
    const always = permissions[0]!.options.find((option) => option.kind === 'allow_always');
    assert.match(always?.name ?? '', /`ls …`/);
    const finished = toolUpdates(session).filter((update) => update.status === 'completed' || update.status === 'failed');
    assert.deepEqual(finished.map((update) => `${update.toolCallId} ${update.status}`), ['call_1 completed', 'call_2 completed', 'call_3 failed']);
  });

  test("another session of the same agent is asked again: an allow_always stays in its own session", async () => {
    const session = await editor([toolCalls([{ id: 'call_l', name: 'run_command', arguments: { command: 'ls -a' } }]), text('Asked.')]);
    await session.acp.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'list again' }] });
    assert.deepEqual(session.permissions().map((request) => (request.toolCall.rawInput as { command: string }).command), ['ls -a']);
    assert.match(toolResultText(requestOf(session, 1), 'call_l'), /rejected/);
  });

  test('session/cancel during a running command stops it, and the turn returns cancelled', async () => {
    const marker = `sleep 41.${process.pid}`;
    const session = await editor([toolCalls([{ id: 'call_s', name: 'run_command', arguments: { command: `echo started; ${marker}` } }]), text('Never reached.')], {
      answer: () => 'allow_once',
    });
    const { acp, sessionId } = session;
    const prompt = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait a while' }] });
    await eventually(
      () => toolUpdates(session).some((update) => update.status === 'in_progress' && JSON.stringify(update.content).includes('started')),
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

  test('set_mode to plan is announced, and a write in plan mode is refused without asking', async () => {
    const session = await editor([toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'plan.txt', content: 'x\n' } }]), text('I will plan instead.')], {
      answer: () => 'allow_once',
    });
    const { acp, sessionId } = session;
    await acp.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    const announced = session.updates().find((update) => update.sessionUpdate === 'current_mode_update');
    assert.equal(announced && 'currentModeId' in announced && announced.currentModeId, 'plan');
    await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write plan.txt' }] });
    assert.equal(session.permissions().length, 0);
    assert.equal(existsSync(join(session.cwd, 'plan.txt')), false);
    assert.match(toolResultText(requestOf(session, 1), 'call_w'), /plan mode/);
    const offered = (requestOf(session, 0).body?.tools ?? []).map((tool) => tool.function.name);
    assert.ok(!offered.includes('write_file'), 'plan mode still offered write_file');
  });

  test('/undo is offered as a command and reverses the files the last turn changed (another session is not in plan mode)', async () => {
    const session = await editor([changeNotes(), text('Changed.')], {
      answer: () => 'allow_once',
    });
    const { acp, sessionId } = session;
    await askToChangeNotes(session);
    assert.equal(notesIn(session), 'changed\n');
    const offered = session.updates().find((update) => update.sessionUpdate === 'available_commands_update');
    assert.ok(offered && 'availableCommands' in offered && offered.availableCommands.some((command) => command.name === 'undo'), '/undo is not offered');
    const response = await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/undo' }] });
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(notesIn(session), 'original\n');
    assert.match(answerText(acp.updates, sessionId), /notes\.txt: restored/);
  });
});

describe('sylvan --acp driven by an editor, an agent of its own', { timeout: 90_000 }, () => {
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

  test("with the client's fs, a read returns the editor's buffer and a write goes to the editor, not the disk", async (context) => {
    const buffers = new Map<string, string>();
    const { acp, sessionId, server } = await ownEditor(
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
