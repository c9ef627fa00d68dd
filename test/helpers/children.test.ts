import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { killWhenDone, processSlot } from './children.ts';
import { signal, withDeadline } from './deadline.ts';
import { tsxLoader } from './start-cli.ts';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the process limiter', { timeout: 10_000 }, () => {
  test('a fourth run waits until one of three frees its slot, and gets that slot', async () => {
    const releases = await Promise.all([processSlot(), processSlot(), processSlot()]);
    let fourthStarted = false;
    const fourth = processSlot().then((release) => ((fourthStarted = true), release));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(fourthStarted, false, 'a fourth process ran alongside three');
    releases[0]?.();
    const release = await withDeadline(fourth, 1_000, 'the fourth run to get the freed slot');
    for (const free of [...releases.slice(1), release]) free();
  });
});

describe('children of a test file', { timeout: 30_000 }, () => {
  test('are killed when the file is stopped with SIGTERM (as --test-timeout stops it)', async (context) => {
    // A stand-in for a test file: it registers a long sleep, says its pid, and waits to be stopped.
    const script = `
      import { spawn } from 'node:child_process';
      import { killAtEnd } from ${JSON.stringify(new URL('./children.ts', import.meta.url).href)};
      const sleeper = killAtEnd(spawn('sleep', ['600'], { stdio: 'ignore' }));
      console.log(sleeper.pid);
      setInterval(() => {}, 1000);
    `;
    const file = killWhenDone(context, spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] }));
    const pid = signal<number>();
    file.stdout.setEncoding('utf8').on('data', (chunk: string) => pid.fire(Number(chunk.trim())));
    const sleeper = await withDeadline(pid.fired, 20_000, 'the stand-in file to start its child');
    context.after(() => void (isAlive(sleeper) && process.kill(sleeper, 'SIGKILL')));
    assert.ok(isAlive(sleeper));

    const closed = new Promise((resolve) => file.once('close', resolve));
    file.kill('SIGTERM');
    await withDeadline(closed, 20_000, 'the stand-in file to exit on SIGTERM');
    // SIGKILL is sent before the file exits; the kernel reaps the child at once.
    await withDeadline(
      (async () => {
        while (isAlive(sleeper)) await new Promise((resolve) => setTimeout(resolve, 20));
      })(),
      5_000,
      'the child to die with its test file',
    );
  });
});
