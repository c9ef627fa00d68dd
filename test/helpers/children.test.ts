import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempWorkspace } from './temp-workspace.ts';
import { childModule } from './child-script.ts';
import { alive, killWhenDone, processSlot } from './children.ts';
import { eventually, signal, withDeadline } from './deadline.ts';

/** children.ts as a stand-in test file imports it: compiled under `npm test`, as the suite's files do. */
const childrenModule = childModule(import.meta.resolve('./children.js'), new URL('./children.ts', import.meta.url));

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
      import { killAtEnd } from ${JSON.stringify(childrenModule.href)};
      const sleeper = killAtEnd(spawn('sleep', ['600'], { stdio: 'ignore' }));
      console.log(sleeper.pid);
      setInterval(() => {}, 1000);
    `;
    const file = killWhenDone(context, spawn(process.execPath, [...childrenModule.loader, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] }));
    const pid = signal<number>();
    file.stdout.setEncoding('utf8').on('data', (chunk: string) => pid.fire(Number(chunk.trim())));
    const sleeper = await withDeadline(pid.fired, 20_000, 'the stand-in file to start its child');
    context.after(() => void (alive(sleeper) && process.kill(sleeper, 'SIGKILL')));
    assert.ok(alive(sleeper));

    const closed = new Promise((resolve) => file.once('close', resolve));
    file.kill('SIGTERM');
    await withDeadline(closed, 20_000, 'the stand-in file to exit on SIGTERM');
    // SIGKILL is sent before the file exits; the kernel reaps the child at once.
    await eventually(() => !alive(sleeper), 5_000, 'the child to die with its test file');
  });
});

describe('children of a test file in a shard (files sharing a process)', { timeout: 30_000 }, () => {
  test("are killed, and its temp folders deleted, when that file ends; testFileEnding() is false again for the next", async (context) => {
    const folder = tempWorkspace('sylvan-shard-children-');
    const children = JSON.stringify(childrenModule.href);
    const workspaces = JSON.stringify(childModule(import.meta.resolve('./temp-workspace.js'), new URL('./temp-workspace.ts', import.meta.url)).href);
    const state = join(folder, 'first.json');
    writeFileSync(
      join(folder, 'first.test.mjs'),
      `import { spawn } from 'node:child_process';
      import { writeFileSync } from 'node:fs';
      import { test } from 'node:test';
      import { killAtEnd, testFileEnding } from ${children};
      import { tempWorkspace } from ${workspaces};
      test('the first file starts a child and makes a folder', () => {
        if (testFileEnding()) throw new Error('testFileEnding() during the tests');
        const sleeper = killAtEnd(spawn('sleep', ['600'], { stdio: 'ignore' }));
        writeFileSync(${JSON.stringify(state)}, JSON.stringify({ pid: sleeper.pid, folder: tempWorkspace() }));
      });`,
    );
    writeFileSync(
      join(folder, 'second.test.mjs'),
      `import assert from 'node:assert/strict';
      import { existsSync, readFileSync } from 'node:fs';
      import { test } from 'node:test';
      import { testFileEnding } from ${children};
      test('the second file finds them gone', () => {
        const { pid, folder } = JSON.parse(readFileSync(${JSON.stringify(state)}, 'utf8'));
        assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the child of the first file outlived it');
        assert.equal(existsSync(folder), false, 'the temp folder of the first file outlived it');
        assert.equal(testFileEnding(), false);
      });`,
    );
    const files = ['first', 'second'].map((name) => ({ name: `test/${name}.test.ts`, url: new URL(`file://${join(folder, `${name}.test.mjs`)}`).href }));
    writeFileSync(
      join(folder, 'shard.test.mjs'),
      `import { runShard } from ${JSON.stringify(new URL('./shard.mjs', import.meta.url).href)};
      await runShard(${JSON.stringify({ files, fileTimeoutMs: 20_000, installedOnce: [] })});`,
    );
    const shard = killWhenDone(
      context,
      spawn(process.execPath, [...childrenModule.loader, '--test', '--test-reporter=spec', join(folder, 'shard.test.mjs')], {
        cwd: folder,
        // Not a child of this test run: a runner of its own (NODE_TEST_CONTEXT would make it run nothing).
        env: { ...process.env, NODE_TEST_CONTEXT: undefined },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let output = '';
    for (const stream of [shard.stdout, shard.stderr]) stream.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const code = await withDeadline(new Promise((resolve) => shard.once('close', resolve)), 25_000, 'the shard of two files to end');
    assert.equal(code, 0, output);
    assert.match(output, /ℹ pass 2/, output);
  });
});
