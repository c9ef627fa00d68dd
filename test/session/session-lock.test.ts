import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { acquireSessionLock, SessionLockedError } from '../../src/session/session-lock.ts';

// The session lock: one left by a dead process is taken over; releasing never deletes a lock that
// another live process holds.

const root = mkdtempSync(join(tmpdir(), 'sylvan-session-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));
let count = 0;
const lockPath = () => {
  const folder = join(root, `locks-${++count}`);
  mkdirSync(folder);
  return join(folder, 'session.lock');
};
const holder = (path: string) => readFileSync(path, 'utf8').trim();

/** The pid of a process that has ended (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** A live process of our own for the test's length; killed by the returned function. */
function livePid(): { pid: number; end: () => void } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  return { pid: child.pid!, end: () => child.kill('SIGKILL') };
}

/**
 * A zombie: `sleep 0.1` exits in the background of a shell that then becomes `sleep`, which never reaps
 * it (a Sylvan killed with kill -9 under a parent that does not reap stays like this). Linux only.
 */
async function zombiePid(): Promise<{ pid: number; end: () => void }> {
  const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk) => resolve(Number(String(chunk).trim()))));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')) await new Promise((r) => setTimeout(r, 10));
  return { pid, end: () => parent.kill('SIGKILL') };
}

describe('the session lock', () => {
  test('a lock held by a zombie (a killed Sylvan not yet reaped) is taken over', { skip: process.platform !== 'linux' && 'zombies are read from /proc' }, async () => {
    const zombie = await zombiePid();
    try {
      assert.match(readFileSync(`/proc/${zombie.pid}/stat`, 'utf8'), /\) Z /, 'the holder is a zombie');
      const path = lockPath();
      writeFileSync(path, `${zombie.pid}\n`);
      const release = acquireSessionLock(path, 's-zombie');
      assert.equal(holder(path), String(process.pid));
      release();
    } finally {
      zombie.end();
    }
  });

  test("a lock left by a process that is gone is taken over, holding this process's id", () => {
    const path = lockPath();
    writeFileSync(path, `${deadPid()}\n`);
    const release = acquireSessionLock(path, 's1');
    assert.equal(holder(path), String(process.pid));
    release();
    assert.equal(existsSync(path), false, 'its own lock is removed on release');
  });

  test('a lock a live process holds is not taken', (context) => {
    const other = livePid();
    context.after(other.end);
    const path = lockPath();
    writeFileSync(path, `${other.pid}\n`);
    assert.throws(() => acquireSessionLock(path, 's2'), (error: unknown) => error instanceof SessionLockedError && error.pid === other.pid);
    assert.equal(holder(path), String(other.pid));
  });

  test('releasing leaves alone a lock that another live process holds by then', (context) => {
    const other = livePid();
    context.after(other.end);
    const path = lockPath();
    const release = acquireSessionLock(path, 's3');
    // Ours was taken over meanwhile (say this process was stopped long enough to look dead).
    writeFileSync(path, `${other.pid}\n`);
    release();
    assert.equal(existsSync(path), true, "the other process's lock was deleted");
    assert.equal(holder(path), String(other.pid));
  });
});
