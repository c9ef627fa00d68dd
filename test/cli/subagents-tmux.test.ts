import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { assertEveryRequestValid, contentText } from '../helpers/chat-requests.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { hang, startDashScopeServer, text, toolCalls, type RecordedRequest, type Reply } from '../helpers/dashscope-server.ts';
import { withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal } from '../helpers/terminal.ts';

const systemOf = (request: RecordedRequest): string => contentText(request.body?.messages?.[0]?.content);
const isSubagent = (request: RecordedRequest): boolean => /subagent, started by another agent/.test(systemOf(request));
const userTexts = (request: RecordedRequest): string[] =>
  (request.body?.messages ?? []).filter((message) => message.role === 'user').map((message) => contentText(message.content));
const lastMessage = (request: RecordedRequest) => request.body?.messages?.at(-1);
const task = (id: string, prompt: string) => ({ id, name: 'task', arguments: { description: prompt, prompt, subagent_type: 'general' } });

describe('subagents in the terminal', { timeout: 120_000 }, () => {
  test('a subagent\'s command is asked in its name and a "no" reaches its model; /undo reverts its write; Ctrl-C stops three running subagents at once and the history stays valid', async () => {
    const workspace = tempWorkspace('sylvan-subagents-');
    const hung: RecordedRequest[] = [];
    let allHung: () => void = () => {};
    const threeHung = new Promise<void>((resolve) => (allHung = resolve));
    const respond = async (request: RecordedRequest): Promise<Reply> => {
      const last = lastMessage(request);
      if (isSubagent(request)) {
        const prompt = userTexts(request)[0] ?? '';
        // The three of the last turn list the files first, then hang until Ctrl-C.
        if (prompt.startsWith('wait ') && last?.role !== 'tool') return toolCalls([{ name: 'list_files', arguments: { path: prompt.replace(/ /g, '-') } }]);
        if (last?.role === 'tool' && !prompt.startsWith('wait ')) return text(`sub done: ${contentText(last.content)}`);
        if (prompt === 'write sub.txt') return toolCalls([{ id: 'call_sw', name: 'write_file', arguments: { path: 'sub.txt', content: 'from a subagent\n' } }]);
        if (prompt === 'run it') return toolCalls([{ id: 'call_sr', name: 'run_command', arguments: { command: 'touch ran.txt' } }]);
        hung.push(request);
        if (hung.length === 3) allHung();
        return hang({ headers: true });
      }
      if (last?.role === 'tool') return text('done.');
      switch (contentText(last?.content)) {
        case 'write':
          return toolCalls([task('call_w', 'write sub.txt')]);
        case 'run':
          return toolCalls([task('call_r', 'run it')]);
        case 'three':
          return toolCalls([task('call_1', 'wait one'), task('call_2', 'wait two'), task('call_3', 'wait three')]);
        default:
          return text('done.');
      }
    };
    const server = closeAtEnd(await startDashScopeServer({ respond }));
    const terminal = await startTerminal({
      cwd: workspace,
      env: { ...dashscopeEnv(server), SYLVAN_HOME: tempWorkspace('sylvan-subagents-home-'), SYLVAN_MAX_RETRIES: '0', SYLVAN_MODE: 'auto-edit' },
      columns: 160,
    });
    after(() => terminal.close());
    await terminal.expect(/› /, 'the first prompt');

    const say = (line: string, next: RegExp, what: string) => terminal.say(line, next, what);

    // auto-edit: the subagent's write applies without a question, and is checkpointed with the turn.
    await say('write', /done\.[\s\S]*› /, 'the subagent\'s write');
    assert.ok(existsSync(join(workspace, 'sub.txt')));
    await say('/undo', /sub\.txt removed[\s\S]*› /, 'the undo of the subagent\'s write');
    assert.equal(existsSync(join(workspace, 'sub.txt')), false);

    await say('run', /general › run_command[^\n]*touch ran\.txt/, 'the question in the subagent\'s name');
    await say('n', /done\.[\s\S]*› /, 'the turn after the no');
    assert.equal(existsSync(join(workspace, 'ran.txt')), false);
    const afterNo = server.requests.find((request) => isSubagent(request) && lastMessage(request)?.tool_call_id === 'call_sr');
    assert.ok(afterNo, 'the subagent\'s model was told');
    assert.match(contentText(lastMessage(afterNo)?.content), /The user said no/);

    terminal.type('three\r');
    await threeHung;
    // One live line per running subagent: its agent, description, what it does, its step.
    await terminal.expectScreen(
      (screen) => ['one', 'two', 'three'].every((word) => new RegExp(`general · wait ${word} · list_files · step 2 · [\\d,]+ tokens · `).test(screen)),
      'a live line for each of the three subagents',
    );
    // Ctrl+O: each one's latest calls under its line.
    terminal.keys('C-o');
    await terminal.expectScreen(
      (screen) => ['one', 'two', 'three'].every((word) => new RegExp(`general · wait ${word} · [^\\n]*\\n\\s*⎿ list_files\\(path: "?wait-${word}`).test(screen)),
      'the three subagents\' calls under their lines after Ctrl+O',
    );
    const interrupted = terminal.expect(/Interrupted[\s\S]*› /, 'the turn stopped by Ctrl-C');
    const pressed = Date.now();
    terminal.type('\x03');
    // Each subagent's request is given up by the CLI: the server sees its connection closed.
    await withDeadline(Promise.all(hung.map((request) => request.abandoned)), 10_000, 'the three subagents\' requests to be stopped');
    const stoppedMs = Date.now() - pressed;
    await interrupted;
    assert.ok(stoppedMs < 1_000, `the three subagents took ${stoppedMs} ms to stop`);

    await say('after', /done\.[\s\S]*› /, 'the turn after the interrupt');
    const next = server.requests.findLast((request) => !isSubagent(request))!;
    assert.equal(next.invalid, undefined, 'the history after the interrupt is accepted');
    const answered = (next.body?.messages ?? []).filter((message) => message.role === 'tool').map((message) => message.tool_call_id);
    for (const id of ['call_1', 'call_2', 'call_3']) assert.ok(answered.includes(id), `${id} has a result: ${answered.join(', ')}`);
    assert.equal(server.requests.filter(isSubagent).length, 10, 'no subagent sent a request after Ctrl-C');
    assertEveryRequestValid(server);
  });
});
