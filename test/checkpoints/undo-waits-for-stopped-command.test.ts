import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Tool } from 'ai';
import { SessionCheckpoints } from '../../src/checkpoints/session-checkpoints.ts';
import { createTools } from '../../src/tools/registry/create-tools.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { withDeadline } from '../helpers/deadline.ts';

// Esc stops a running command for the turn at once, but the command may take seconds more to die
// (one that ignores SIGTERM waits out the grace for SIGKILL), and only then is its after-snapshot
// taken. /undo, /redo and /rewind wait on `settled()`: it must wait for that recording too (it
// used to resolve at once, and /undo said "Nothing to undo"), and never for ever (`withinMs`).

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd } });

function setUp() {
  const workspace = tempWorkspace('sylvan-stopped-command-ws-');
  git(workspace, 'init', '-q');
  writeFileSync(join(workspace, 'kept.txt'), 'kept\n');
  git(workspace, 'add', 'kept.txt');
  git(workspace, 'commit', '-q', '-m', 'first');
  const checkpoints = new SessionCheckpoints({ home: tempWorkspace('sylvan-stopped-command-home-'), sessionId: 's-1', workspaceRoot: workspace });
  const tools = createTools({ workspaceRoot: workspace, weather: 'sample', secretPatterns: [], toolTimeoutMs: 60_000, checkpoints: () => checkpoints });
  return { workspace, checkpoints, runCommand: tools.run_command as Tool };
}

/** Resolves once `path` exists (the command got that far); polled, with a deadline. */
async function created(path: string): Promise<void> {
  await withDeadline(
    (async () => {
      while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 20));
    })(),
    30_000,
    `${path} to be created`,
  );
}

describe('settled() after a command stopped by the interrupt', { timeout: 60_000 }, () => {
  test('a command that ignores SIGTERM: settled() waits until it ended and its change is recorded', async () => {
    const { workspace, checkpoints, runCommand } = setUp();
    checkpoints.beginTurn('make a file, then wait', 0);
    const interrupt = new AbortController();
    const call = runCommand.execute!({ command: "trap '' TERM; echo stopped > made.txt; sleep 30" }, { toolCallId: 'call-1', messages: [], abortSignal: interrupt.signal, context: {} }) as Promise<string>;
    await created(join(workspace, 'made.txt'));
    interrupt.abort();
    await assert.rejects(call, 'the call ends for the turn at once');

    assert.equal(await checkpoints.settled(), true);
    assert.deepEqual(
      checkpoints.undoable?.changes.map((change) => [change.path, change.before.kind, change.after.kind]),
      [['made.txt', 'absent', 'file']],
      'what the stopped command made is there for /undo',
    );
  });

  test('settled(withinMs) says false while a recording is open, true once its finish ran', async () => {
    const { checkpoints } = setUp();
    checkpoints.beginTurn('a command that never ends', 0);
    const finish = await checkpoints.beforeCommand('run_command');

    assert.equal(await checkpoints.settled(100), false);
    await finish();
    assert.equal(await checkpoints.settled(60_000), true);
  });
});
