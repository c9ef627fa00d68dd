import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { describe, test } from 'node:test';
import { childScript } from '../../helpers/child-script.ts';
import { tempWorkspace } from '../../helpers/temp-workspace.ts';
import { groupGoneWithin, livingMembersOf } from './group-processes.ts';

const CHILD = childScript(import.meta.resolve('./command-then-exit.js'), new URL('./command-then-exit.ts', import.meta.url));

/** Runs the child, waits for the group it prints, and returns it with the child's ending. */
async function commandGroupOfChild(
  how: 'exit' | 'wait',
): Promise<{ group: number; sylvan: ChildProcess; ended: Promise<{ code: number | null; signal: string | null }> }> {
  const child = spawn(process.execPath, [...CHILD, how], { stdio: ['ignore', 'pipe', 'inherit'], cwd: tempWorkspace('sylvan-exit-hook-') });
  const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const group = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the child never printed its command group'));
    }, 15_000);
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /^(\d+)\n/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  return { group, sylvan: child, ended };
}

describe('no command outlives Sylvan', { timeout: 40_000 }, () => {
  test('process.exit kills the live command groups', async () => {
    const { group, ended } = await commandGroupOfChild('exit');
    assert.equal((await ended).code, 0);
    await groupGoneWithin(group, 3_000);
  });

  test('SIGTERM to Sylvan kills the live command groups, and Sylvan still ends by SIGTERM', async () => {
    const { group, sylvan, ended } = await commandGroupOfChild('wait');
    assert.ok(livingMembersOf(group).length > 0, 'the command was not running');
    sylvan.kill('SIGTERM');
    assert.equal((await ended).signal, 'SIGTERM');
    await groupGoneWithin(group, 3_000);
  });

  test('the watchdog runs in /, not the workspace, which it must not keep busy', { skip: process.platform !== 'linux' && 'the watchdog runs on Linux only' }, async () => {
    const { group, sylvan, ended } = await commandGroupOfChild('wait');
    const watchdogs = readdirSync('/proc').filter((entry) => {
      try {
        return /^\d+$/.test(entry) && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('sylvan-watchdog') && childOf(entry) === sylvan.pid;
      } catch {
        return false;
      }
    });
    const folders = watchdogs.map((pid) => readlinkSync(`/proc/${pid}/cwd`));
    sylvan.kill('SIGKILL');
    await ended;
    await groupGoneWithin(group, 3_000);
    assert.deepEqual(folders, ['/'], 'one watchdog beside the command, in /');
  });

  test('kill -9 of Sylvan, which runs no hook: its watchdog kills the live command groups, a command deaf to SIGTERM too', { skip: process.platform !== 'linux' && 'the watchdog finds processes in /proc (Linux)' }, async () => {
    const { group, sylvan, ended } = await commandGroupOfChild('wait');
    assert.ok(livingMembersOf(group).length > 0, 'the command was not running');
    sylvan.kill('SIGKILL');
    assert.equal((await ended).signal, 'SIGKILL');
    await groupGoneWithin(group, 3_000);
  });
});

/** The parent of a process, from /proc/<pid>/stat ("pid (name) state ppid …"; the name may hold spaces). */
function childOf(pid: string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}
