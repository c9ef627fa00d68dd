import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { assertEveryRequestValid, conversationOf } from '../helpers/chat-requests.ts';
import { startDashScopeServer, text, toolCalls, type DashScopeServer, type Responder } from '../helpers/dashscope-server.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal, type Terminal } from '../helpers/terminal.ts';

/** "edit" edits notes.txt, "write" creates other.txt, "run" runs a command that creates, changes and deletes; after a result, "done." */
const onRequest: Responder = (request) => {
  const last = request.body?.messages?.at(-1);
  if (last?.role !== 'user') return text('done.');
  switch (String(last.content)) {
    case 'edit':
      return toolCalls([{ id: 'call_edit', name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'beta', new_text: 'BETA' } }]);
    case 'write':
      return toolCalls([{ id: 'call_write', name: 'write_file', arguments: { path: 'other.txt', content: 'other\n' } }]);
    case 'run':
      return toolCalls([{ id: 'call_run', name: 'run_command', arguments: { command: 'echo new > created.txt; echo changed > change.txt; rm delete.txt' } }]);
    default:
      return text('done.');
  }
};

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', '-c', 'core.fsmonitor=false', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_OPTIONAL_LOCKS: '0' },
  });

const NOTES = Buffer.from('alpha\r\nbeta\r\ngamma\r\n');

/** A git repository with notes.txt (CRLF, mode 0640), change.txt and delete.txt committed, a stash and a staged change. */
function repository(): string {
  const workspace = tempWorkspace('sylvan-undo-');
  git(workspace, 'init', '-q');
  writeFileSync(join(workspace, 'notes.txt'), NOTES);
  chmodSync(join(workspace, 'notes.txt'), 0o640);
  writeFileSync(join(workspace, 'change.txt'), 'old\n');
  writeFileSync(join(workspace, 'delete.txt'), 'doomed\n');
  writeFileSync(join(workspace, 'staged.txt'), 'one\n');
  git(workspace, 'add', '.');
  git(workspace, 'commit', '-q', '-m', 'first');
  writeFileSync(join(workspace, 'staged.txt'), 'stashed\n');
  git(workspace, 'stash', '-q');
  writeFileSync(join(workspace, 'staged.txt'), 'staged\n');
  git(workspace, 'add', 'staged.txt');
  return workspace;
}

const repositoryState = (workspace: string) => ({
  head: git(workspace, 'rev-parse', 'HEAD'),
  index: readFileSync(join(workspace, '.git', 'index')).toString('base64'),
  stash: git(workspace, 'stash', 'list'),
  refs: git(workspace, 'for-each-ref'),
});

async function open(server: DashScopeServer, workspace: string, home: string, args: string[] = []): Promise<Terminal> {
  const terminal = await startTerminal({
    cwd: workspace,
    env: { ...dashscopeEnv(server), SYLVAN_HOME: home, SYLVAN_MAX_RETRIES: '0' },
    args: ['--yes', ...args],
    columns: 160,
  });
  after(() => terminal.close());
  // A continued session draws its earlier turns first, prompts (›) and all: the real prompt comes after the resumed line.
  await terminal.expect(args.includes('--continue') ? /Resumed session [^\n]*\n[\s\S]*› / : /› /, 'the first prompt');
  return terminal;
}

/** Types a line and waits for what it should bring, then the next prompt. */
async function say(terminal: Terminal, line: string, next: RegExp, what: string): Promise<void> {
  const seen = terminal.expect(next, what);
  terminal.type(`${line}\r`);
  await seen;
}

const DONE = /done\.[\s\S]*› /;

describe('/undo in the REPL', { timeout: 120_000 }, () => {
  test('an edit then /undo leaves the file byte-identical; a command\'s created, changed and deleted files all come back; the user\'s .git is untouched', async () => {
    const workspace = repository();
    const home = tempWorkspace('sylvan-undo-home-');
    const server = closeAtEnd(await startDashScopeServer({ respond: onRequest }));
    const terminal = await open(server, workspace, home);

    await say(terminal, 'edit', DONE, 'the edit made');
    assert.equal(readFileSync(join(workspace, 'notes.txt'), 'utf8'), 'alpha\r\nBETA\r\ngamma\r\n');
    await say(terminal, '/undo', /notes\.txt restored[\s\S]*› /, 'the undo of the edit');
    assert.deepEqual(readFileSync(join(workspace, 'notes.txt')), NOTES);
    assert.equal(statSync(join(workspace, 'notes.txt')).mode & 0o777, 0o640);

    const before = repositoryState(workspace);
    await say(terminal, 'run', DONE, 'the command run');
    assert.ok(existsSync(join(workspace, 'created.txt')) && !existsSync(join(workspace, 'delete.txt')));
    await say(terminal, '/undo', /Undoing turn 2 "run"[\s\S]*› /, 'the undo of the command');
    const screen = terminal.output.replace(/\r/g, '');
    assert.match(screen, /created\.txt removed \(it did not exist before\)/);
    assert.match(screen, /change\.txt restored\n/);
    assert.match(screen, /delete\.txt restored \(it had been deleted\)/);
    assert.ok(!existsSync(join(workspace, 'created.txt')));
    assert.equal(readFileSync(join(workspace, 'change.txt'), 'utf8'), 'old\n');
    assert.equal(readFileSync(join(workspace, 'delete.txt'), 'utf8'), 'doomed\n');
    assert.deepEqual(repositoryState(workspace), before);
    assert.equal(git(workspace, 'stash', 'list').split('\n').filter(Boolean).length, 1);
    assertEveryRequestValid(server);
  });
});

describe('/rewind in the REPL, and /undo after --continue', { timeout: 120_000 }, () => {
  test('Esc Esc opens /rewind; rewinding files and conversation to before turn 2 restores both, and --continue resumes there and can still undo', async () => {
    const workspace = repository();
    const home = tempWorkspace('sylvan-rewind-home-');
    const server = closeAtEnd(await startDashScopeServer({ respond: onRequest }));
    const first = await open(server, workspace, home);
    await say(first, 'edit', DONE, 'turn 1: the edit');
    await say(first, 'write', DONE, 'turn 2: the new file');
    assert.ok(existsSync(join(workspace, 'other.txt')));

    const listed = first.expect(/Rewind to before which turn\? \(number, Enter to cancel\) › /, 'the /rewind question');
    first.keys('Escape');
    await first.expect(/Press Esc again to rewind/, 'the hint after one Esc');
    first.keys('Escape');
    await listed;
    const list = first.output.replace(/\r/g, '');
    assert.match(list, /1\. \d\d:\d\d {2}edit {2}· notes\.txt/);
    assert.match(list, /2\. \d\d:\d\d {2}write {2}· other\.txt/);
    await say(first, '2', /Restore what\?/, 'the question of what to restore');
    const menu = await first.expectScreen(/Esc says no/, 'the one-key menu of what to restore');
    assert.match(menu, /Restore what\?\s*\n❯ f {2}Files\n {2}c {2}Conversation\n {2}b {2}Both\n/);
    // One key, no Enter: as an approval is answered.
    const rewound = first.expect(/back to before turn 2[\s\S]*› /, 'the rewind');
    first.type('b');
    await rewound;
    assert.ok(!existsSync(join(workspace, 'other.txt')), 'the file of turn 2 is still there');
    assert.equal(readFileSync(join(workspace, 'notes.txt'), 'utf8'), 'alpha\r\nBETA\r\ngamma\r\n', 'turn 1 keeps its edit');

    await say(first, 'hello', DONE, 'the next turn');
    const afterRewind = conversationOf(server.requests.at(-1)!);
    assert.deepEqual(afterRewind.map((message) => message.role), ['user', 'assistant', 'tool', 'assistant', 'user']);
    assert.equal(afterRewind[0]?.content, 'edit');
    assert.equal(afterRewind.at(-1)?.content, 'hello');
    first.type('\x04');
    assert.equal(await first.exited(), 0);

    const again = await open(server, workspace, home, ['--continue']);
    await say(again, 'hello again', DONE, 'the continued turn');
    const continued = conversationOf(server.requests.at(-1)!);
    assert.deepEqual(continued.map((message) => message.role), ['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user']);
    assert.deepEqual(continued.filter((message) => message.role === 'user').map((message) => message.content), ['edit', 'hello', 'hello again']);
    // Someone edits the file after Sylvan did: /undo shows what putting it back would do and asks first.
    writeFileSync(join(workspace, 'notes.txt'), 'alpha\r\nBETA by hand\r\ngamma\r\n');
    await say(again, '/undo', /Overwrite notes\.txt\?/, 'the question before overwriting a changed file');
    assert.match(await again.expectScreen(/Esc says no/, 'the one-key menu'), /❯ n {2}No, keep it\n {2}y {2}Yes, overwrite it\n/);
    const question = again.output.replace(/\r/g, '');
    assert.match(question, /notes\.txt was changed after Sylvan's change/);
    // The numbered diff of the approval preview: old and new line numbers, then the sign.
    assert.match(question, / {2}│ 2 +- BETA by hand␍\n {2}│ +2 \+ beta␍/);
    const restored = again.expect(/notes\.txt restored[\s\S]*› /, 'the undo after --continue');
    again.type('y');
    await restored;
    assert.deepEqual(readFileSync(join(workspace, 'notes.txt')), NOTES);
    again.type('\x04');
    assert.equal(await again.exited(), 0);
    assertEveryRequestValid(server);
  });
});
