import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Tool } from 'ai';
import { checkpointFolder, KEPT_SESSIONS } from '../../src/checkpoints/checkpoint-store.ts';
import { SessionCheckpoints, type SessionCheckpointsOptions } from '../../src/checkpoints/session-checkpoints.ts';
import { createTools } from '../../src/tools/registry/create-tools.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd } });
/** Reads the user's repository without running their fsmonitor or hooks or refreshing their index. */
const gitRead = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_OPTIONAL_LOCKS: '0' },
  });
const never = async () => false;

/** A workspace (optionally a git repository with one commit), a home, the checkpoints and the real tools wired to them. */
function setUp(options: { git?: boolean; bounds?: SessionCheckpointsOptions['bounds']; sessionId?: string; workspace?: string; home?: string } = {}) {
  const workspace = options.workspace ?? tempWorkspace('sylvan-checkpoints-ws-');
  const home = options.home ?? tempWorkspace('sylvan-checkpoints-home-');
  if (options.git && !existsSync(join(workspace, '.git'))) {
    git(workspace, 'init', '-q');
    writeFileSync(join(workspace, 'kept.txt'), 'kept\n');
    git(workspace, 'add', 'kept.txt');
    git(workspace, 'commit', '-q', '-m', 'first');
  }
  const checkpoints = new SessionCheckpoints({ home, sessionId: options.sessionId ?? 's-1', workspaceRoot: workspace, bounds: options.bounds });
  const tools = createTools({ workspaceRoot: workspace, weather: 'sample', secretPatterns: [], toolTimeoutMs: 60_000, checkpoints: () => checkpoints });
  const call = (name: 'write_file' | 'edit_file' | 'run_command', input: object) =>
    (tools[name] as Tool).execute!(input, { toolCallId: `call-${name}`, messages: [], context: {} }) as Promise<string>;
  return { workspace, home, checkpoints, call };
}

/** Everything that says what state the user's repository is in. */
function repositoryState(workspace: string) {
  return {
    head: gitRead(workspace, 'rev-parse', 'HEAD'),
    index: readFileSync(join(workspace, '.git', 'index')).toString('base64'),
    stash: gitRead(workspace, 'stash', 'list'),
    refs: gitRead(workspace, 'for-each-ref'),
    objects: gitRead(workspace, 'count-objects', '-v'),
    status: gitRead(workspace, 'status', '--porcelain=v2', '--untracked-files=all'),
  };
}

describe('checkpoints of the file tools', () => {
  test('write_file then undo leaves the file byte-identical, mode included; a created file is removed', async () => {
    const { workspace, checkpoints, call } = setUp();
    const original = Buffer.from('one\r\ntwo\r\n\xef\xbb\xbfodd bytes \x00\x01\n', 'latin1');
    writeFileSync(join(workspace, 'notes.txt'), original);
    chmodSync(join(workspace, 'notes.txt'), 0o640);
    checkpoints.beginTurn('rewrite notes', 0);
    await call('write_file', { path: 'notes.txt', content: 'replaced\n' });
    await call('write_file', { path: 'sub/new.txt', content: 'brand new\n' });
    await call('edit_file', { path: 'notes.txt', old_text: 'replaced', new_text: 'edited' });
    assert.equal(readFileSync(join(workspace, 'notes.txt'), 'utf8'), 'edited\n');

    const lines = await checkpoints.undo(checkpoints.undoable!, never);
    assert.deepEqual(lines.map((line) => `${line.path} ${line.outcome}`), ['notes.txt restored', 'sub/new.txt removed', 'notes.txt restored']);
    assert.deepEqual(readFileSync(join(workspace, 'notes.txt')), original);
    assert.equal(statSync(join(workspace, 'notes.txt')).mode & 0o777, 0o640);
    assert.ok(!existsSync(join(workspace, 'sub', 'new.txt')));

    await checkpoints.redo(checkpoints.redoable!, never);
    assert.equal(readFileSync(join(workspace, 'notes.txt'), 'utf8'), 'edited\n');
    assert.equal(readFileSync(join(workspace, 'sub', 'new.txt'), 'utf8'), 'brand new\n');
  });

  test('a file changed since by someone else is overwritten only when the user agrees', async () => {
    const { workspace, checkpoints, call } = setUp();
    writeFileSync(join(workspace, 'a.txt'), 'before\n');
    checkpoints.beginTurn('change a', 0);
    await call('write_file', { path: 'a.txt', content: 'by sylvan\n' });
    writeFileSync(join(workspace, 'a.txt'), 'by the user\n');
    const asked: string[] = [];
    const lines = await checkpoints.undo(checkpoints.undoable!, async (conflict) => {
      asked.push(`${conflict.path}: ${conflict.current.kind === 'file' ? conflict.current.bytes.toString() : ''}`);
      return false;
    });
    assert.deepEqual(asked, ['a.txt: by the user\n']);
    assert.equal(lines[0]?.outcome, 'kept');
    assert.equal(readFileSync(join(workspace, 'a.txt'), 'utf8'), 'by the user\n');
  });

  test('the checkpoints survive a new process on the same session (--continue): undo still works', async () => {
    const first = setUp({ sessionId: 's-continued' });
    writeFileSync(join(first.workspace, 'a.txt'), 'before\n');
    first.checkpoints.beginTurn('change a', 0);
    await first.call('edit_file', { path: 'a.txt', old_text: 'before', new_text: 'after' });
    await first.checkpoints.settled();

    const again = new SessionCheckpoints({ home: first.home, sessionId: 's-continued', workspaceRoot: first.workspace });
    assert.equal(again.undoable?.words, 'change a');
    await again.undo(again.undoable!, never);
    assert.equal(readFileSync(join(first.workspace, 'a.txt'), 'utf8'), 'before\n');
  });
});

describe('secret files never enter a checkpoint', () => {
  test('neither from a file tool nor from a command snapshot, not even as bytes in the shadow repository', async () => {
    const { workspace, home, checkpoints, call } = setUp({ git: true });
    const secret = 'API_KEY=sk-never-in-a-checkpoint-9931';
    writeFileSync(join(workspace, '.env'), `${secret}\n`);
    mkdirSync(join(workspace, 'keys'));
    writeFileSync(join(workspace, 'keys', 'server.pem'), `${secret} pem\n`);
    checkpoints.beginTurn('touch secrets', 0);
    // The file tools refuse secret paths; the checkpoint must not read them first either.
    await assert.rejects(call('write_file', { path: '.env', content: 'X=1\n' }));
    await call('run_command', { command: `echo "${secret} changed" > .env; echo "${secret} new" > keys/other.key; echo ok > plain.txt` });
    await checkpoints.settled();

    const changed = checkpoints.turns.flatMap((turn) => turn.changes.map((change) => change.path));
    assert.deepEqual(changed, ['plain.txt']);
    const folder = checkpointFolder(home, 's-1');
    const shadow = join(folder, 'shadow.git');
    const everyObject = execFileSync('git', ['--git-dir', shadow, 'cat-file', '--batch-all-objects', '--batch'], { encoding: 'latin1' });
    assert.ok(everyObject.includes('ok\n'), 'the shadow repository holds no snapshot at all');
    assert.ok(!everyObject.includes('sk-never-in-a-checkpoint'), 'a secret is in the shadow repository');
    const blobs = existsSync(join(folder, 'blobs')) ? readdirSync(join(folder, 'blobs')) : [];
    for (const name of blobs) {
      assert.ok(!readFileSync(join(folder, 'blobs', name)).toString('latin1').includes('sk-never'), `blob ${name} holds the secret`);
    }
    assert.ok(!readFileSync(join(folder, 'index.json'), 'utf8').includes('sk-never'));
  });
});

describe('the shadow repository', () => {
  test('a command that creates, changes and deletes files is undone whole; the user\'s HEAD, index, stash and refs stay untouched', async () => {
    const { workspace, checkpoints, call } = setUp({ git: true });
    writeFileSync(join(workspace, 'change.txt'), 'old\n');
    writeFileSync(join(workspace, 'delete.txt'), 'doomed\n');
    writeFileSync(join(workspace, '.gitignore'), 'ignored/\n');
    git(workspace, 'add', 'change.txt', 'delete.txt', '.gitignore');
    git(workspace, 'commit', '-q', '-m', 'second');
    // Work in progress the user has: a stash, a staged change, a branch, a tag.
    writeFileSync(join(workspace, 'kept.txt'), 'stashed work\n');
    git(workspace, 'stash', '-q');
    writeFileSync(join(workspace, 'kept.txt'), 'staged work\n');
    git(workspace, 'add', 'kept.txt');
    git(workspace, 'branch', 'topic');
    git(workspace, 'tag', 'v1');
    // The user's hooks and an fsmonitor program must not run for a snapshot.
    const marker = join(workspace, 'hook-ran');
    mkdirSync(join(workspace, 'hooks'));
    for (const hook of ['pre-commit', 'post-commit', 'post-index-change', 'fsmonitor']) {
      writeFileSync(join(workspace, 'hooks', hook), `#!/bin/sh\necho ${hook} >> ${marker}\n`, { mode: 0o755 });
    }
    git(workspace, 'config', 'core.hooksPath', join(workspace, 'hooks'));
    git(workspace, 'config', 'core.fsmonitor', join(workspace, 'hooks', 'fsmonitor'));
    mkdirSync(join(workspace, 'ignored'));
    writeFileSync(join(workspace, 'ignored', 'build.log'), 'built\n');
    const before = repositoryState(workspace);
    // A GIT_DIR or GIT_INDEX_FILE in Sylvan's own environment must not send the snapshot into the user's repository.
    process.env.GIT_INDEX_FILE = join(workspace, '.git', 'index');
    process.env.GIT_DIR = join(workspace, '.git');
    try {
      checkpoints.beginTurn('run the script', 0);
      await call('run_command', { command: 'echo new > created.txt; echo changed > change.txt; rm delete.txt; echo rebuilt > ignored/build.log' });
    } finally {
      delete process.env.GIT_INDEX_FILE;
      delete process.env.GIT_DIR;
    }
    const changed = checkpoints.undoable!.changes.map((change) => change.path).sort();
    assert.deepEqual(changed, ['change.txt', 'created.txt', 'delete.txt'], 'ignored files are not in the snapshot');

    const lines = await checkpoints.undo(checkpoints.undoable!, never);
    assert.deepEqual(lines.map((line) => `${line.path} ${line.outcome}`).sort(), ['change.txt restored', 'created.txt removed', 'delete.txt recreated']);
    assert.equal(readFileSync(join(workspace, 'change.txt'), 'utf8'), 'old\n');
    assert.equal(readFileSync(join(workspace, 'delete.txt'), 'utf8'), 'doomed\n');
    assert.ok(!existsSync(join(workspace, 'created.txt')));
    assert.deepEqual(repositoryState(workspace), before);
    assert.ok(!existsSync(marker), `a hook of the user's ran: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`);
  });

  test('a command that only changes a mode git cannot hold (0600 to 0640) is undone to the exact mode', async () => {
    const { workspace, checkpoints, call } = setUp({ git: true });
    writeFileSync(join(workspace, 'private.txt'), 'private\n');
    chmodSync(join(workspace, 'private.txt'), 0o600);
    checkpoints.beginTurn('loosen it', 0);
    await call('run_command', { command: 'chmod 640 private.txt' });
    assert.deepEqual(checkpoints.undoable?.changes.map((change) => change.path), ['private.txt']);
    const lines = await checkpoints.undo(checkpoints.undoable!, never);
    assert.deepEqual(lines.map((line) => `${line.path} ${line.outcome}`), ['private.txt restored']);
    assert.equal(statSync(join(workspace, 'private.txt')).mode & 0o777, 0o600);
  });

  test('outside a git work tree a command records nothing and says so once', async () => {
    const { checkpoints, call } = setUp();
    checkpoints.beginTurn('run twice', 0);
    await call('run_command', { command: 'echo one > one.txt' });
    await call('run_command', { command: 'echo two > two.txt' });
    const notices = checkpoints.takeNotices();
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /not in a git work tree.*cannot be undone/);
    assert.equal(checkpoints.undoable, undefined);
  });
});

describe('bounds', () => {
  test('past the turn limit the oldest checkpoint is dropped, said, and its bytes removed', async () => {
    const { workspace, home, checkpoints, call } = setUp({ bounds: { maxTurns: 2 } });
    for (const [index, word] of ['first', 'second', 'third'].entries()) {
      writeFileSync(join(workspace, `${word}.txt`), `${word} before ${index}\n`);
      checkpoints.beginTurn(`${word} turn`, index);
      await call('write_file', { path: `${word}.txt`, content: `${word} after\n` });
    }
    const notices = checkpoints.takeNotices();
    assert.deepEqual(notices.length, 1);
    assert.match(notices[0]!, /turn 1 "first turn" was dropped to keep the last 2 turns/);
    const blobs = readdirSync(join(checkpointFolder(home, 's-1'), 'blobs')).map((name) => readFileSync(join(checkpointFolder(home, 's-1'), 'blobs', name), 'utf8'));
    assert.ok(!blobs.some((text) => text.startsWith('first')), 'the dropped turn\'s bytes are still kept');
    assert.equal(blobs.length, 4);
    // The two kept turns still undo; the dropped one is gone.
    await checkpoints.undo(checkpoints.undoable!, never);
    await checkpoints.undo(checkpoints.undoable!, never);
    assert.equal(checkpoints.undoable, undefined);
    assert.equal(readFileSync(join(workspace, 'second.txt'), 'utf8'), 'second before 1\n');
    assert.equal(readFileSync(join(workspace, 'first.txt'), 'utf8'), 'first after\n');
  });

  test('past the byte limit the oldest go first, the newest always stays; a file over the per-file limit is not kept, and said', async () => {
    const { workspace, checkpoints, call } = setUp({ bounds: { maxBytes: 3_000, maxFileBytes: 10_000 } });
    for (const [index, word] of ['a', 'b', 'c'].entries()) {
      writeFileSync(join(workspace, `${word}.txt`), word.repeat(1_000));
      checkpoints.beginTurn(`turn ${word}`, index);
      await call('write_file', { path: `${word}.txt`, content: word.toUpperCase().repeat(1_000) });
    }
    const notices = checkpoints.takeNotices();
    assert.deepEqual(notices.map((notice) => /turn (\d)/.exec(notice)?.[1]), ['1', '2']);
    assert.match(notices[0]!, /was dropped to keep checkpoints under 3,000 bytes; its changes can no longer be undone/);
    assert.deepEqual(checkpoints.turns.map((turn) => turn.dropped === true), [true, true, false]);

    writeFileSync(join(workspace, 'huge.bin'), Buffer.alloc(20_000, 1));
    checkpoints.beginTurn('huge', 3);
    await call('write_file', { path: 'huge.bin', content: 'small now' });
    assert.match(checkpoints.takeNotices().join('\n'), /huge\.bin is 20,000 bytes, over the checkpoint limit: this change cannot be undone/);
  });
});

describe('conversation points', () => {
  test('a turn can be rewound only while the history still holds its message at that place', () => {
    const { checkpoints } = setUp();
    checkpoints.beginTurn('hello there', 2);
    const turn = checkpoints.turns[0]!;
    const history = [
      { role: 'user' as const, content: 'earlier' },
      { role: 'assistant' as const, content: 'ok' },
      { role: 'user' as const, content: 'hello there' },
    ];
    assert.equal(checkpoints.conversationPoint(turn, history), 2);
    assert.equal(checkpoints.conversationPoint(turn, [{ role: 'user', content: 'a summary of everything' }]), undefined);
  });
});


describe('checkpoints across sessions', () => {
  test('a session with no transcript loses its checkpoints silently; past the last sessions the oldest go, and that is said', async () => {
    const home = tempWorkspace('sylvan-checkpoints-home-');
    mkdirSync(join(home, 'sessions'));
    const make = (id: string, usedAt: number) => {
      mkdirSync(join(checkpointFolder(home, id)), { recursive: true });
      writeFileSync(join(checkpointFolder(home, id), 'index.json'), '{}');
      utimesSync(join(checkpointFolder(home, id), 'index.json'), usedAt, usedAt);
    };
    make('orphan', 1);
    for (let index = 0; index < KEPT_SESSIONS + 1; index++) {
      make(`s-${index}`, 1_000 + index);
      writeFileSync(join(home, 'sessions', `s-${index}.jsonl`), '');
    }
    const { checkpoints } = setUp({ home, sessionId: 'current' });
    checkpoints.beginTurn('hello', 0);
    await checkpoints.settled();
    const left = readdirSync(join(home, 'checkpoints')).sort();
    assert.ok(!left.includes('orphan'));
    assert.ok(!left.includes('s-0') && !left.includes('s-1'), left.join(' '));
    assert.equal(left.length, KEPT_SESSIONS);
    assert.ok(left.includes('current'));
    assert.deepEqual(checkpoints.takeNotices(), [`(checkpoints of 2 older sessions removed: Sylvan keeps those of the last ${KEPT_SESSIONS} sessions)`]);
  });
});
