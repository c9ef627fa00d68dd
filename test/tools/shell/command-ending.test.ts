import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { isGroupAlive, terminateGroup } from '../../../src/tools/shell/process-group.ts';
import { MARK_VARIABLE } from '../../../src/tools/shell/process-marks.ts';
import { livingWith } from './group-processes.ts';

const started: ChildProcess[] = [];
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A `sleep` in a process group of its own, carrying `mark` as a command's processes do. */
function marked(mark: string): ChildProcess {
  const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH, [MARK_VARIABLE]: mark } });
  started.push(child);
  return child;
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
const ended = (child: ChildProcess) => new Promise<void>((resolve) => (running(child) ? child.once('exit', () => resolve()) : resolve()));

/** The state letter of a process (R, S, Z…), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

describe('ending a command', { skip: process.platform !== 'linux' && 'marks are found in /proc (Linux)', timeout: 30_000 }, () => {
  test('kills only the processes with exactly its mark: another command\'s "…12" survives the end of "…1"', async () => {
    const session = `test-${process.pid}.command`;
    const one = marked(`${session}1`);
    const twelve = marked(`${session}12`);
    await terminateGroup(one.pid!, 500, `${session}1`);
    await ended(one);
    // A kill would have reached it by now: terminateGroup returns once its signals are sent and the group is gone.
    assert.ok(running(twelve), 'the other command\'s process was killed');
    assert.notEqual(stateOf(twelve.pid!), undefined);
  });
  test('a marked process that answers SIGTERM by exec-ing with an empty environment is followed and killed', async () => {
    const { escaper } = await endedWithEscaper('command-exec', 'exec env -i sleep 60');
    const state = stateOf(escaper.pid!);
    assert.ok(state === undefined || state === 'Z', `the process that dropped its mark still runs (state ${state})`);
    await ended(escaper);
    assert.equal(escaper.signalCode, 'SIGKILL');
  });

  test('what such a process starts after its exec dies with it: its group is followed too', async () => {
    const child = `${7000 + (process.pid % 1000)}.5`;
    const { escaper } = await endedWithEscaper('command-exec-fork', `exec env -i /bin/bash -c 'trap \\"\\" TERM; sleep ${child} & wait' >/dev/null`);
    const survivors = livingWith(`sleep ${child}`);
    if (survivors.length > 0) spawnSync('pkill', ['-f', `sleep ${child}`]);
    assert.deepEqual(survivors, [], 'the sleep started after the exec outlived the command');
    await ended(escaper);
  });
});

/**
 * A command whose group is gone (only the mark finds what it left, as after a setsid), and a marked
 * bash of it in a group of its own that runs `onTerm` when SIGTERM comes; returned once the
 * command was ended with a 300 ms grace.
 */
async function endedWithEscaper(label: string, onTerm: string): Promise<{ escaper: ChildProcess }> {
  const mark = `test-${process.pid}.${label}`;
  const leader = marked(mark);
  leader.kill('SIGKILL');
  await ended(leader);
  const escaper = spawn('/bin/bash', ['-c', `trap "${onTerm}" TERM; echo ready; while :; do sleep 0.05; done`], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { PATH: process.env.PATH, [MARK_VARIABLE]: mark },
  });
  started.push(escaper);
  await new Promise((resolve) => escaper.stdout!.once('data', resolve));
  await terminateGroup(leader.pid!, 300, mark);
  return { escaper };
}

describe('the process liveness check', { skip: process.platform !== 'linux' && 'zombies are told apart in /proc (Linux)', timeout: 30_000 }, () => {
  test('does not count a zombie as alive', async () => {
    // A group whose only member has exited and is not reaped: sleep, its parent, never waits.
    const holder = spawn('/bin/sh', ['-c', 'setsid sh -c "sleep 0.3" & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    started.push(holder);
    const zombie = await new Promise<number>((resolve) => holder.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    const deadline = Date.now() + 10_000;
    while (stateOf(zombie) !== 'Z') {
      assert.ok(Date.now() < deadline, `process ${zombie} never became a zombie (state ${stateOf(zombie)})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(isGroupAlive(zombie), false);
    const living = marked(`test-${process.pid}.living`);
    assert.equal(isGroupAlive(living.pid!), true, 'a sleeping process is alive');
  });
});
