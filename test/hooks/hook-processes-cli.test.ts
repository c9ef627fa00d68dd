import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { killWhenDone } from '../helpers/children.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text } from '../helpers/dashscope-server.ts';
import { withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startDashScopeServer } from '../helpers/dashscope-server.ts';

// A hook's processes end with it (past its timeout, on Ctrl-C: the built CLI), and a folder's hooks
// run only once the user trusted them as they are (in-process: trust is on disk, not in a process).

const KEY = 'sk-hooks-processes-3b9e';

/** A hook that records its shell's pid and a background child's, then waits for the child (30 s). */
const LINGERING = 'echo $$ > "$SYLVAN_PROJECT_DIR/hook.pid"; sleep 30 & echo $! > "$SYLVAN_PROJECT_DIR/child.pid"; wait';

function userHooks(hooks: object): string {
  const cwd = tempWorkspace('sylvan-hooks-');
  mkdirSync(join(cwd, '.sylvan-home'));
  writeFileSync(join(cwd, '.sylvan-home', 'settings.json'), JSON.stringify({ hooks }));
  return cwd;
}

/** Whether a process runs (a zombie does not count: it runs nothing). Linux's /proc. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

const pidIn = (cwd: string, name: string) => Number(readFileSync(join(cwd, name), 'utf8').trim());

async function fileAppears(path: string): Promise<void> {
  while (!existsSync(path) || readFileSync(path, 'utf8').trim() === '') await pause(50);
}

describe("a hook's processes", { timeout: 120_000 }, () => {
  test('a hook past its timeout is killed with its children, and the turn goes on', async () => {
    const cwd = userHooks({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: LINGERING, timeout: 1 }] }] });
    const { result, server } = await runCli({ server: { replies: [text('answered')] }, key: KEY, cwd, args: ['-p', 'hello'] });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /answered/);
    assert.match(result.stderr, /timed out and was stopped/);
    assert.equal(server.requests.length, 1);
    assert.equal(isRunning(pidIn(cwd, 'hook.pid')), false, 'the hook is gone');
    assert.equal(isRunning(pidIn(cwd, 'child.pid')), false, "the hook's child is gone");
  });

  test('Ctrl-C ends a running hook and its children', async (context) => {
    const cwd = userHooks({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: LINGERING }] }] });
    const server = closeAtEnd(await startDashScopeServer({ replies: [text('never')], apiKey: KEY }));
    const running = startCli({ cwd, args: ['-p', 'hello'], env: dashscopeEnv(server, { DASHSCOPE_API_KEY: KEY }), stdin: '' });
    killWhenDone(context, running.child);
    await withDeadline(fileAppears(join(cwd, 'child.pid')), 30_000, 'the hook to start its child');
    running.child.kill('SIGINT');
    const result = await withDeadline(running.exited, 30_000, 'the CLI to exit after Ctrl-C');
    assert.equal(result.code, 130, result.stderr);
    assert.equal(server.requests.length, 0);
    assert.equal(isRunning(pidIn(cwd, 'hook.pid')), false, 'the hook is gone');
    assert.equal(isRunning(pidIn(cwd, 'child.pid')), false, "the hook's child is gone");
  });
});

describe("a project's hooks", { timeout: 120_000 }, () => {
  test('do not run untrusted, run once trusted with /hooks trust, and ask again when changed', async () => {
    const cwd = tempWorkspace('sylvan-hooks-');
    mkdirSync(join(cwd, '.sylvan'));
    const projectHooks = (word: string) =>
      writeFileSync(
        join(cwd, '.sylvan', 'settings.json'),
        JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo ${word} >> "$SYLVAN_PROJECT_DIR/marker.txt"` }] }] } }),
      );
    const marker = () => (existsSync(join(cwd, 'marker.txt')) ? readFileSync(join(cwd, 'marker.txt'), 'utf8') : '');
    projectHooks('first');

    const untrusted = await runCli({ inProcess: true, server: { replies: [text('one')] }, key: KEY, cwd, args: ['-p', 'hello'] });
    assert.equal(untrusted.result.code, 0, untrusted.result.stderr);
    assert.equal(marker(), '', 'the untrusted hook did not run');
    assert.match(untrusted.result.stderr, /1 hook in .*\.sylvan\/settings\.json did not run: a folder's hooks run only once you trust them/);

    const trusting = await runCli({ inProcess: true, server: { replies: [text('two')] }, key: KEY, cwd, stdin: '/hooks\n/hooks trust\nhello\n' });
    assert.equal(trusting.result.code, 0, trusting.result.stderr);
    assert.match(trusting.result.stdout, /not trusted: does not run/);
    assert.match(trusting.result.stdout, /Trusted: these hooks run from now on/);
    assert.equal(marker(), 'first\n', 'the trusted hook ran');

    projectHooks('changed');
    const changed = await runCli({ inProcess: true, server: { replies: [text('three')] }, key: KEY, cwd, args: ['-p', 'hello'] });
    assert.equal(changed.result.code, 0, changed.result.stderr);
    assert.equal(marker(), 'first\n', 'the changed hook did not run');
    assert.match(changed.result.stderr, /did not run: a folder's hooks run only once you trust them/);
  });
});
