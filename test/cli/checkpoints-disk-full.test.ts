import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startDashScopeServer, text, toolCalls, type Responder } from '../helpers/dashscope-server.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal, type Terminal } from '../helpers/terminal.ts';

const onRequest: Responder = (request) => {
  const last = request.body?.messages?.at(-1);
  if (last?.role !== 'user') return text('done.');
  switch (String(last.content)) {
    case 'write':
      return toolCalls([{ id: 'call_write', name: 'write_file', arguments: { path: 'a.txt', content: 'first\n' } }]);
    case 'edit':
      return toolCalls([{ id: 'call_edit', name: 'edit_file', arguments: { path: 'b.txt', old_text: 'bee', new_text: 'BEE' } }]);
    case 'run':
      return toolCalls([{ id: 'call_run', name: 'run_command', arguments: { command: 'echo made > c.txt' } }]);
    default:
      return text('done.');
  }
};

/** A 1 MB tmpfs mounted on `folder` (root only); unmounted when the file ends. Undefined where it cannot be mounted. */
function smallDisk(folder: string): string | undefined {
  if (process.getuid?.() !== 0) return 'not root: a tmpfs cannot be mounted';
  mkdirSync(folder, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', folder], { stdio: 'pipe' });
  } catch (error) {
    return `a tmpfs cannot be mounted here: ${(error as Error).message.split('\n')[0]}`;
  }
  after(() => execFileSync('umount', ['-l', folder]));
  return undefined;
}

/** Writes into `folder` until its disk is full. */
function fill(folder: string): void {
  try {
    writeFileSync(join(folder, 'filler'), Buffer.alloc(4 * 1024 * 1024, 1));
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
    return;
  }
  assert.fail('the small disk took 4 MB');
}

async function say(terminal: Terminal, line: string, next: RegExp, what: string): Promise<string> {
  const from = terminal.output.length;
  const seen = terminal.expect(next, what);
  terminal.type(`${line}\r`);
  await seen;
  return terminal.output.slice(from).replace(/\r/g, '').replace(/\s+/g, ' ');
}

const DONE = /done\.[\s\S]*› /;

describe('checkpoints on a full disk', { timeout: 120_000 }, () => {
  test('a change whose checkpoint cannot be written is not made, and that is said at once; with space again the next one is checkpointed', async (context) => {
    const workspace = tempWorkspace('sylvan-disk-full-');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], { cwd: workspace, env: { PATH: process.env.PATH ?? '', HOME: workspace } });
    git('init', '-q');
    writeFileSync(join(workspace, 'b.txt'), 'bee\n');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    const home = tempWorkspace('sylvan-disk-full-home-');
    const checkpoints = join(home, 'checkpoints');
    const skip = smallDisk(checkpoints);
    if (skip) return context.skip(skip);
    const server = closeAtEnd(await startDashScopeServer({ respond: onRequest }));
    const terminal = await startTerminal({ cwd: workspace, env: { ...dashscopeEnv(server), SYLVAN_HOME: home, SYLVAN_MAX_RETRIES: '0' }, args: ['--yes'], columns: 200 });
    after(() => terminal.close());
    await terminal.expect(/› /, 'the first prompt');

    await say(terminal, 'write', DONE, 'the first checkpointed write');
    const session = join(checkpoints, readdirSync(checkpoints)[0]!);
    fill(session);

    const edit = await say(terminal, 'edit', DONE, 'the edit on a full disk');
    assert.match(edit, /Not done: no checkpoint could be taken first, so \/undo could not reverse it \(the disk holding Sylvan's checkpoints is full\)/);
    assert.equal(readFileSync(join(workspace, 'b.txt'), 'utf8'), 'bee\n');
    const run = await say(terminal, 'run', DONE, 'the command on a full disk');
    assert.match(run, /Not done: no checkpoint could be taken first, so \/undo could not reverse it/);
    assert.ok(!existsSync(join(workspace, 'c.txt')), 'the command ran without a checkpoint');

    rmSync(join(session, 'filler'));
    await say(terminal, 'run', DONE, 'the command with space again');
    assert.ok(existsSync(join(workspace, 'c.txt')));
    const undo = await say(terminal, '/undo', /\/redo takes this back[\s\S]*› /, 'the undo of the command');
    assert.match(undo, /c\.txt removed/);
    assert.ok(!existsSync(join(workspace, 'c.txt')));
    terminal.type('\x04');
    assert.equal(await terminal.exited(), 0);
  });
});
