import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Tool } from 'ai';
import { checkpointFolder } from '../../src/checkpoints/checkpoint-store.ts';
import { SessionCheckpoints, type SessionCheckpointsOptions } from '../../src/checkpoints/session-checkpoints.ts';
import { createTools } from '../../src/tools/registry/create-tools.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const never = async () => false;
const MB = 1024 * 1024;

/** A git repository with one commit, the session's checkpoints (default bounds unless given) and the real tools wired to them. */
function setUp(bounds?: SessionCheckpointsOptions['bounds']) {
  const workspace = tempWorkspace('sylvan-limits-ws-');
  const home = tempWorkspace('sylvan-limits-home-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], { cwd: workspace, env: { PATH: process.env.PATH ?? '', HOME: workspace } });
  git('init', '-q');
  writeFileSync(join(workspace, 'kept.txt'), 'kept\n');
  git('add', 'kept.txt');
  git('commit', '-q', '-m', 'first');
  const checkpoints = new SessionCheckpoints({ home, sessionId: 's-1', workspaceRoot: workspace, bounds });
  const tools = createTools({ workspaceRoot: workspace, weather: 'sample', secretPatterns: [], toolTimeoutMs: 60_000, checkpoints: () => checkpoints });
  const call = (name: 'write_file' | 'run_command', input: object) =>
    (tools[name] as Tool).execute!(input, { toolCallId: `call-${name}`, messages: [], context: {} }) as Promise<string>;
  const shadow = join(checkpointFolder(home, 's-1'), 'shadow.git');
  /** Bytes of every object the shadow repository holds, loose and packed. */
  const shadowBytes = () => {
    const counted = execFileSync('git', ['--git-dir', shadow, 'count-objects', '-v'], { encoding: 'utf8' });
    const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(counted)?.[1] ?? 0);
    return (kib('size') + kib('size-pack')) * 1024;
  };
  const shadowHolds = (needle: Buffer) => execFileSync('git', ['--git-dir', shadow, 'cat-file', '--batch-all-objects', '--batch'], { maxBuffer: 256 * MB }).includes(needle);
  return { workspace, home, checkpoints, call, shadowBytes, shadowHolds };
}

describe('checkpoint limits', () => {
  test('with the default bounds a file over 20 MB is not kept, by a command or a file tool, and that is said', async () => {
    const { workspace, checkpoints, call, shadowHolds } = setUp();
    const marker = randomBytes(32);
    const big = Buffer.alloc(20 * MB + 1, 7);
    marker.copy(big, 1000);
    writeFileSync(join(workspace, 'source.bin'), big);
    checkpoints.beginTurn('make a big file', 0);
    await call('run_command', { command: 'cp source.bin copy.bin; echo small > small.txt; rm source.bin' });
    await checkpoints.settled();
    const notices = checkpoints.takeNotices().join('\n');
    assert.match(notices, /copy\.bin is 20,971,521 bytes, over the checkpoint limit of 20 MB: what the command did to it cannot be undone/);
    assert.match(notices, /source\.bin is 20,971,521 bytes/);
    assert.deepEqual(checkpoints.undoable!.changes.map((change) => change.path), ['small.txt']);
    assert.ok(!shadowHolds(marker), 'the big file went into the shadow repository');

    checkpoints.beginTurn('rewrite it', 1);
    await call('write_file', { path: 'copy.bin', content: 'small now' });
    assert.match(checkpoints.takeNotices().join('\n'), /copy\.bin is 20,971,521 bytes, over the checkpoint limit: this change cannot be undone/);
    // Undo reverses what was kept and leaves the big files alone.
    await checkpoints.undo(checkpoints.undoable!, never);
    assert.ok(!existsSync(join(workspace, 'small.txt')));
    assert.equal(readFileSync(join(workspace, 'copy.bin'), 'utf8'), 'small now');
  });

  test('a file over the per-file limit but well under the total is not kept', async () => {
    const { workspace, checkpoints, call } = setUp({ maxFileBytes: 4_000, maxBytes: 10 * MB });
    writeFileSync(join(workspace, 'over.txt'), 'o'.repeat(5_000));
    checkpoints.beginTurn('change both', 0);
    await call('run_command', { command: "printf 'changed' >> over.txt; echo fine > under.txt" });
    await checkpoints.settled();
    assert.match(checkpoints.takeNotices().join('\n'), /over\.txt is 5,007 bytes, over the checkpoint limit of 4,000 bytes/);
    assert.deepEqual(checkpoints.undoable!.changes.map((change) => change.path), ['under.txt']);
    await checkpoints.undo(checkpoints.undoable!, never);
    assert.equal(readFileSync(join(workspace, 'over.txt'), 'utf8'), `${'o'.repeat(5_000)}changed`, 'undo touched a file it did not keep');
  });

  test('the newest turn with changes stays even when it alone is over the byte limit', async () => {
    const { workspace, checkpoints, call } = setUp({ maxBytes: 10_000, maxFileBytes: 1 * MB });
    writeFileSync(join(workspace, 'first.txt'), 'first\n');
    checkpoints.beginTurn('small turn', 0);
    await call('write_file', { path: 'first.txt', content: 'first, changed\n' });
    const before = randomBytes(30_000);
    writeFileSync(join(workspace, 'large.bin'), before);
    checkpoints.beginTurn('large turn', 1);
    await call('run_command', { command: 'head -c 30000 /dev/urandom > large.bin' });
    await checkpoints.settled();
    const notices = checkpoints.takeNotices();
    assert.equal(notices.length, 1, notices.join('\n'));
    assert.match(notices[0]!, /turn 1 "small turn" was dropped to keep checkpoints under 10,000 bytes/);
    assert.equal(checkpoints.undoable?.words, 'large turn');
    const lines = await checkpoints.undo(checkpoints.undoable!, never);
    assert.deepEqual(lines.map((line) => `${line.path} ${line.outcome}`), ['large.bin restored']);
    assert.deepEqual(readFileSync(join(workspace, 'large.bin')), before);
  });

  test('dropping or rewinding past a command turn deletes its shadow snapshots: the shadow repository shrinks back under its limit', async () => {
    const { workspace, checkpoints, call, shadowBytes, shadowHolds } = setUp({ maxBytes: 400 * 1024 });
    const first = randomBytes(300 * 1024);
    writeFileSync(join(workspace, 'payload.bin'), first);
    checkpoints.beginTurn('first command', 0);
    await call('run_command', { command: 'rm payload.bin' });
    await checkpoints.settled();
    assert.ok(shadowBytes() > 300 * 1024);
    checkpoints.beginTurn('second command', 1);
    await call('run_command', { command: 'head -c 300000 /dev/urandom > other.bin' });
    await checkpoints.settled();
    assert.match(checkpoints.takeNotices().join('\n'), /turn 1 "first command" was dropped/);
    assert.ok(!shadowHolds(first.subarray(0, 64)), 'the dropped turn\'s file is still in the shadow repository');
    assert.ok(shadowBytes() < 400 * 1024, `the shadow repository holds ${shadowBytes()} bytes`);

    // Rewinding the conversation past the last command turn forgets its snapshots too.
    rmSync(join(workspace, 'other.bin'));
    await checkpoints.forgetFrom(checkpoints.turns.at(-1)!);
    assert.ok(shadowBytes() < 100 * 1024, `after the rewind the shadow repository holds ${shadowBytes()} bytes`);
  });
});
