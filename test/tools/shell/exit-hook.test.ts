import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, test } from 'node:test';
import { childScript } from '../../helpers/child-script.ts';
import { groupGoneWithin, livingMembersOf } from './group-processes.ts';

const CHILD = childScript(import.meta.resolve('./command-then-exit.js'), new URL('./command-then-exit.ts', import.meta.url));

/** Runs the child, waits for the group it prints, and returns it with the child's ending. */
async function commandGroupOfChild(
  how: 'exit' | 'wait',
): Promise<{ group: number; sylvan: ChildProcess; ended: Promise<{ code: number | null; signal: string | null }> }> {
  const child = spawn(process.execPath, [...CHILD, how], { stdio: ['ignore', 'pipe', 'inherit'] });
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

  test('kill -9 of Sylvan, which runs no hook: its watchdog kills the live command groups', { skip: process.platform !== 'linux' && 'the watchdog finds processes in /proc (Linux)' }, async () => {
    const { group, sylvan, ended } = await commandGroupOfChild('wait');
    assert.ok(livingMembersOf(group).length > 0, 'the command was not running');
    sylvan.kill('SIGKILL');
    assert.equal((await ended).signal, 'SIGKILL');
    await groupGoneWithin(group, 3_000);
  });
});
