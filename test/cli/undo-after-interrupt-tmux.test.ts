import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startTerminal } from '../helpers/terminal.ts';

// A command stopped with Esc ends the turn at once, but one that ignores SIGTERM lives on until
// SIGKILL (2 s later), and only then are its changes recorded. /undo typed at the next prompt
// used to find nothing to undo; it waits for that recording, then reverses the command.

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd } });

test('/undo right after Esc stopped a command that ignores SIGTERM undoes that command', { timeout: 120_000 }, async () => {
  const cwd = tempWorkspace();
  git(cwd, 'init', '-q');
  writeFileSync(join(cwd, 'kept.txt'), 'kept\n');
  git(cwd, 'add', 'kept.txt');
  git(cwd, 'commit', '-q', '-m', 'first');
  const terminal = await startTerminal({ cwd, env: { SYLVAN_PROVIDER: 'mock' }, columns: 120, rows: 40, args: ['--yes', '--sandbox', 'off'] });
  try {
    await terminal.expectScreen(/^›/m, 'the first prompt');
    terminal.type("run `trap '' TERM; echo stopped > made.txt; echo ready; sleep 30`\r");
    await terminal.expectScreen(/esc to cancel\)\n {2}ready/, 'the command running, past making its file');
    assert.ok(existsSync(join(cwd, 'made.txt')));
    terminal.type('\x1b');
    await terminal.expectScreen(/■ Interrupted\.[\s\S]*^›/m, 'the prompt after the interrupt');
    terminal.type('/undo\r');
    const undone = await terminal.expectScreen(/\/redo takes this back\.|Nothing to undo/, 'the answer to /undo');

    assert.match(undone, /Undoing turn 1 "run `trap '' TERM; echo stopped > made\.txt[^"\n]*":\n {4}made\.txt removed \(it did not exist before\)/);
    assert.equal(existsSync(join(cwd, 'made.txt')), false);
  } finally {
    await terminal.close();
  }
});
