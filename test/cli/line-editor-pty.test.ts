import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { hang, startDashScopeServer, text, type DashScopeServer, type Reply } from '../helpers/dashscope-server.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startTerminal, type Terminal } from '../helpers/terminal.ts';

let server: DashScopeServer | undefined;
let terminal: Terminal | undefined;
let workspace: string | undefined;
afterEach(async () => {
  await terminal?.close();
  await server?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
  server = terminal = workspace = undefined;
});

async function session(replies: (index: number) => Reply, columns?: number) {
  workspace = tempWorkspace();
  server = await startDashScopeServer({ respond: (_request, index) => replies(index) });
  terminal = await startTerminal({
    cwd: workspace,
    env: { DASHSCOPE_API_KEY: 'test-key', DASHSCOPE_BASE_URL: server.baseURL, SYLVAN_HOME: join(workspace, '.home'), SYLVAN_MAX_RETRIES: '0' },
    columns,
  });
  await terminal.expect(/› /, 'the first prompt');
  return { terminal, server };
}

/** What the user said in each request, in order: the last user message of each. */
const userMessages = (server: DashScopeServer) =>
  server.requests.map((request) => request.body?.messages?.filter((message) => message.role === 'user').at(-1)?.content);

describe('the line editor in a real terminal', { timeout: 60_000 }, () => {
  test('a pasted 3-line block, \\+Enter and Ctrl-J each make one multi-line message', async () => {
    const { terminal, server } = await session((index) => text(`answer ${index + 1}`));
    terminal.type('\x1b[200~first line\r\nsecond line\nthird line\x1b[201~');
    await terminal.expect(/third line/, 'the pasted block drawn');
    terminal.type('\r');
    await terminal.expect(/answer 1[\s\S]*› /, 'the first answer and the prompt again');
    terminal.type('one\\\rtwo\nthree\r');
    await terminal.expect(/answer 2[\s\S]*› /, 'the second answer');
    assert.deepEqual(userMessages(server), ['first line\nsecond line\nthird line', 'one\ntwo\nthree']);
    terminal.type('\x04');
    assert.equal(await terminal.exited(), 0);
  });

  test('a question typed while Sylvan starts is sent alone; the next one, half typed, waits in the input', async () => {
    workspace = tempWorkspace();
    server = await startDashScopeServer({ respond: (_request, index) => text(`answer ${index + 1}`) });
    const startSignal = join(workspace, 'start');
    execFileSync('mkfifo', [startSignal]);
    terminal = await startTerminal({
      cwd: workspace,
      env: { DASHSCOPE_API_KEY: 'test-key', DASHSCOPE_BASE_URL: server.baseURL, SYLVAN_HOME: join(workspace, '.home'), SYLVAN_MAX_RETRIES: '0' },
      startsOnLineIn: startSignal,
    });
    // A question sent, and the start of the next one.
    terminal.type('北京天气\rand Par');
    await terminal.expect(/北京天气\r?\n?and Par/, 'the early keys echoed by the terminal in cooked mode');
    await writeFile(startSignal, 'start\n');
    await terminal.expect(/answer 1[\s\S]*› /, 'the early question answered');
    await terminal.expectScreen(/^› and Par *$/m, 'the unsent rest waiting in the input');
    terminal.type('is?\r');
    await terminal.expect(/answer 2[\s\S]*› /, 'the second answer');
    assert.deepEqual(userMessages(server), ['北京天气', 'and Paris?']);
    terminal.type('\x04');
    assert.equal(await terminal.exited(), 0);
  });

  test('a CJK line edited with ← and Backspace sends exactly the edited text', async () => {
    const { terminal, server } = await session(() => text('好的'));
    terminal.type('北京今天天气怎么样');
    await terminal.expect(/怎么样/, 'the typed line');
    terminal.type('\x1b[D\x1b[D\x7f');
    await terminal.expect(/\x1b\[14C/, 'the cursor after 气 (two columns of prompt, six wide characters)');
    terminal.type('什\r');
    await terminal.expect(/好的[\s\S]*› /, 'the answer');
    assert.deepEqual(userMessages(server), ['北京今天天气什么样']);
    terminal.type('\x04');
    assert.equal(await terminal.exited(), 0);
  });

  test('type-ahead during an answer is drawn under it, never into it; Esc stops the turn and gives the queued line back, sent only with Enter', async () => {
    const { terminal, server } = await session((index) =>
      index === 0 ? hang({ headers: true, text: 'A long answer begins' }) : text('the next answer'),
    );
    terminal.type('tell me a story\r');
    await terminal.expect(/A long answer begins/, 'the start of the answer');
    terminal.type('typed ahead\r\x1b');
    await terminal.expect(/Interrupted/, 'Esc stopping the turn');
    const screen = await terminal.expectScreen(/^› typed ahead *$/m, 'the queued line back in the input');
    assert.match(screen, /^A long answer begins *$/m, 'the answer as it came, nothing typed inside it');
    assert.doesNotMatch(screen, /· queued/, 'not sent');
    assert.equal(server.requests.length, 1);
    terminal.type('\r');
    await terminal.expect(/the next answer[\s\S]*› /, 'the line answered once sent');
    assert.deepEqual(userMessages(server), ['tell me a story', 'typed ahead']);
    terminal.type('\x04');
    assert.equal(await terminal.exited(), 0);
  });

  test('Ctrl-C at an empty prompt asks for a second one, which quits with the resume line; bracketed paste is switched off', async () => {
    const { terminal } = await session(() => text('hello there', { usage: { promptTokens: 1200, completionTokens: 34 } }));
    assert.ok(terminal.output.includes('\x1b[?2004h'), 'bracketed paste switched on');
    terminal.type('hi\r');
    await terminal.expect(/hello there[\s\S]*› /, 'the answer');
    terminal.type('\x03');
    await terminal.expect(/Press Ctrl-C again to exit/, 'the exit hint');
    terminal.type('\x03');
    await terminal.expect(/Resume this session: sylvan --resume \S+\s+Session tokens: 1,200 in · 34 out/, 'the resume line and the totals');
    assert.equal(await terminal.exited(), 0);
    assert.ok(terminal.output.lastIndexOf('\x1b[?2004l') > terminal.output.lastIndexOf('\x1b[?2004h'), 'bracketed paste switched off on exit');
  });
});
