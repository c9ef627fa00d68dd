import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { contentText, conversationOf } from '../helpers/chat-requests.ts';
import { hang, httpError, startDashScopeServer, text, toolCalls, type DashScopeServer, type Reply } from '../helpers/dashscope-server.ts';
import { signal, withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { SCREEN_DEADLINE_MS, startTerminal } from '../helpers/terminal.ts';

const LEFT = '\x1b[D';
const END = '\x05';
const BACKSPACE = '\x7f';
const CTRL_C = '\x03';
const ESC = '\x1b';

/** The user messages of request `index`, as the model got them. */
const usersAt = (server: DashScopeServer, index: number): string[] =>
  conversationOf(server.requests[index]!).filter((message) => message.role === 'user').map((message) => contentText(message.content));

/** A server answering the n-th request with `replies[n]`, each reply possibly held back until the test lets it go. */
async function scriptedServer(replies: Array<Reply | (() => Promise<Reply>)>): Promise<DashScopeServer> {
  return closeAtEnd(await startDashScopeServer({
    respond: (_request, index) => {
      const reply = replies[index];
      if (reply === undefined) return text(`unexpected request ${index}`);
      return typeof reply === 'function' ? reply() : reply;
    },
  }));
}

/** The rows of the screen from the last one matching `pattern` to the end, trailing blank rows dropped. */
function from(screen: string, pattern: RegExp): string {
  const rows = screen.trimEnd().split('\n');
  const start = rows.findLastIndex((row) => pattern.test(row));
  return start < 0 ? '' : rows.slice(start).join('\n');
}

test('at 120 columns: the branch under the prompt, type-ahead drawn and edited during an answer, Ctrl-C gives a queued line back unsent, a queued line follows a completed answer, retries counted down, Esc stops a retry wait', { timeout: 120_000 }, async () => {
  const cwd = tempWorkspace();
  // A repository as git leaves it: HEAD names the branch (no git process needed to make or read it).
  mkdirSync(join(cwd, '.git'));
  writeFileSync(join(cwd, '.git', 'HEAD'), 'ref: refs/heads/feature/live-input\n');
  const secondHeld = signal();
  const secondAsked = signal();
  const server = await scriptedServer([
    hang({ headers: true, text: 'The story begins on a quiet hill' }),
    async () => {
      secondAsked.fire();
      await secondHeld.fired;
      return text('The second answer is done.');
    },
    text('Answering the follow-up.'),
    httpError(429, { headers: { 'retry-after': '1' } }),
    text('Recovered after the retry.'),
    httpError(429, { headers: { 'retry-after': '30' } }),
  ]);
  const terminal = await startTerminal({ cwd, env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '3' }), columns: 120, rows: 40 });
  try {
    await terminal.expectScreen(/^› *\n\s*git: feature\/live-input · ask mode · /m, 'the branch leading the row under the prompt');

    terminal.type('tell me a story\r');
    await terminal.expectScreen(/The story begins on a quiet hill/, 'the answer streaming');
    // Typed while the answer streams, edited with ← and Backspace, wide characters and all.
    terminal.type('helo');
    terminal.type(`${LEFT}l${END} 世界x${BACKSPACE}`);
    let screen = await terminal.expectScreen(/^› hello 世界$/m, 'the type-ahead under the answer');
    assert.match(from(screen, /quiet hill/), /^The story begins on a quiet hill\n(.*\n)*› hello 世界$/, 'below the answer');
    assert.doesNotMatch(screen, /ask mode|Interrupted/, 'the answer is still running: no prompt yet');

    terminal.type('\r');
    screen = await terminal.expectScreen(/^queued: hello 世界$/m, 'the queued line');
    assert.doesNotMatch(screen, /^› hello/m, 'the input is empty again');
    terminal.type(CTRL_C);
    screen = await terminal.expectScreen(/Interrupted[\s\S]*^› hello 世界 *\n\s*git: feature/m, 'the queued line back in the input');
    assert.doesNotMatch(screen, /queued/, 'no longer queued');
    assert.equal(server.requests.length, 1, 'nothing was sent');

    // It is editable, and sent only with Enter: the next request is the edited line.
    terminal.type(' again\r');
    await withDeadline(secondAsked.fired, SCREEN_DEADLINE_MS, 'the edited line to reach the server');
    assert.deepEqual(usersAt(server, 1), ['tell me a story', 'hello 世界 again']);

    terminal.type('a follow-up\r');
    await terminal.expectScreen(/Waiting for the model[\s\S]*^queued: a follow-up$/m, 'a line queued while waiting');
    secondHeld.fire();
    await terminal.expectScreen(/The second answer is done\.[\s\S]*^› a follow-up {2}· queued[\s\S]*Answering the follow-up\./m, 'the queued line sent after the answer completed');
    await terminal.expectScreen(/Answering the follow-up\.[\s\S]*^› *$/m, 'the prompt again');
    assert.deepEqual(usersAt(server, 2).at(-1), 'a follow-up');

    terminal.type('now something busy\r');
    await terminal.expect(/rate limited \(429\) · retrying \(1\/3\) in 1 s/, 'the retry in the status line');
    await terminal.expectScreen(/Recovered after the retry\.[\s\S]*^› *$/m, 'the answer after the retry');
    assert.equal(server.requests.length, 5);

    terminal.type('and again\r');
    screen = await terminal.expectScreen(/rate limited \(429\) · retrying \(1\/3\) in (30|29) s · esc to cancel/, 'a long retry wait counted down');
    terminal.type(ESC);
    await terminal.expectScreen(/Interrupted[\s\S]*^› *$/m, 'Esc stopped the wait at once');
    assert.equal(server.requests.length, 6, 'no retry was sent after Esc');
    terminal.type('exit\r');
    assert.equal(await terminal.exited(), 0);
  } finally {
    await terminal.close();
  }
});

test('at 60 columns: wrapped CJK type-ahead, Esc gives queued lines back, and typed-ahead text never answers an approval', { timeout: 120_000 }, async () => {
  const cwd = tempWorkspace();
  const callHeld = signal();
  const callAsked = signal();
  const server = await scriptedServer([
    hang({ headers: true, text: '开始讲故事' }),
    async () => {
      callAsked.fire();
      await callHeld.fired;
      return toolCalls([{ id: 'call_write', name: 'write_file', arguments: { path: 'note.txt', content: 'hi\n' } }]);
    },
    text('I did not write it.'),
  ]);
  const terminal = await startTerminal({ cwd, env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }), columns: 60, rows: 30 });
  try {
    await terminal.expectScreen(/^› *\n\s*ask mode/m, 'the prompt (no repository: no branch)');
    assert.doesNotMatch(await terminal.screen(), /git:/);
    terminal.type('讲个故事\r');
    await terminal.expectScreen(/开始讲故事/, 'the answer streaming');
    // 30 wide characters and the prompt: more than one row of 59 columns.
    const long = '一二三四五六七八九十'.repeat(3);
    terminal.type(`${long}\r第二行`);
    const screen = await terminal.expectScreen(/^› 第二行$/m, 'the second line typed');
    assert.match(screen, /^queued: 一二三四五六七八九十/m, 'the queued line, cut to the width');
    for (const row of screen.split('\n')) assert.ok([...row].length <= 60, `a row within the width: ${row}`);
    terminal.type(ESC);
    const back = await terminal.expectScreen(new RegExp(`Interrupted[\\s\\S]*^› ${long.slice(0, 10)}`, 'm'), 'the queued line back');
    assert.doesNotMatch(back, /· queued/, 'not sent');
    await terminal.expectScreen(/^ *第二行 *\n\s*ask mode/m, 'and what was being typed after it');
    assert.equal(server.requests.length, 1, 'nothing was sent');
    // Ctrl-U twice clears both lines (one each).
    terminal.type('\x15\x7f\x15');
    await terminal.expectScreen(/^› *\n\s*ask mode/m, 'an empty prompt');

    terminal.type('write a note\r');
    await withDeadline(callAsked.fired, SCREEN_DEADLINE_MS, 'the request');
    terminal.type('yes please');
    await terminal.expectScreen(/^› yes please$/m, 'typed ahead while waiting');
    callHeld.fire();
    await terminal.expectScreen(/❯ y {2}Yes/, 'the approval menu, not answered by the typed-ahead text');
    terminal.type('n');
    await terminal.expectScreen(/I did not write it\.[\s\S]*^› yes please *$/m, 'the typed-ahead text back at the prompt');
    assert.throws(() => readFileSync(join(cwd, 'note.txt')), 'nothing was written');
    terminal.type(`${'\x15'}exit\r`);
    assert.equal(await terminal.exited(), 0);
  } finally {
    await terminal.close();
  }
});
