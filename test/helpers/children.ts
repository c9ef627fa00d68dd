import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { atEachFileEnd, fileEnding } from './file-end.mjs';
import { removeTempWorkspaces } from './temp-workspace.ts';

// What the CLI helpers leave behind, cleaned up when each test file ends (in a shard too, where
// files share this module): every child process still alive is killed, then every temp workspace
// (temp-workspace.ts) is deleted. A test kills its own children
// when it ends (`killWhenDone`); this is the net under that, and it also catches a file stopped
// by its --test-timeout (SIGTERM from the test runner), which would otherwise orphan them.

/** Whether process `pid` runs (a zombie nobody has reaped yet counts as gone). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const live = new Set<ChildProcess>();
const endings = new Set<EndOfFile>();

/** Registers `child` so it is killed (SIGKILL) when the test file ends, whatever happened. */
export function killAtEnd<CHILD extends ChildProcess>(child: CHILD): CHILD {
  if (child.exitCode === null && child.signalCode === null) {
    live.add(child);
    child.once('close', () => live.delete(child));
  }
  return child;
}

/** Kills `child` (SIGKILL) when the test `context` ends, passed or failed; returns it. */
export function killWhenDone<CHILD extends ChildProcess>(context: { after(fn: () => void): void }, child: CHILD): CHILD {
  context.after(() => void child.kill('SIGKILL'));
  return killAtEnd(child);
}

/**
 * Something that is not a child process but must not outlive the file either (a tmux server):
 * `close` runs in the file's `after`, before the temp folders go; `kill` is the synchronous last
 * resort on exit or SIGTERM. Returns the unregister function.
 */
export interface EndOfFile {
  close(): Promise<void>;
  kill(): void;
}

export function endAtFileEnd(ending: EndOfFile): () => void {
  endings.add(ending);
  return () => void endings.delete(ending);
}

/** True once the file's tests are over: a CLI started now would outlive the cleanup. */
export const testFileEnding = (): boolean => fileEnding();

function killLive(): void {
  for (const child of live) child.kill('SIGKILL');
  for (const ending of endings) ending.kill();
}

atEachFileEnd(async () => {
  await Promise.all([...endings].map((ending) => ending.close()));
  const closed = [...live].map((child) => new Promise((resolve) => child.once('close', resolve)));
  killLive();
  await Promise.all(closed);
  removeTempWorkspaces();
});
process.on('exit', killLive);
for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killLive();
    process.exit(128 + (signal === 'SIGTERM' ? 15 : 1));
  });
}

// ---- one limiter for every CLI process a test file runs -------------------------------------------

/** More CLI processes at once than this only make them fight over the two cores. */
const MAX_RUNNING = 3;
let running = 0;
const waiting: (() => void)[] = [];

/** Waits for one of the file's MAX_RUNNING process slots; the returned function frees it. */
export async function processSlot(): Promise<() => void> {
  if (running < MAX_RUNNING) return occupySlotNow();
  await new Promise<void>((resolve) => waiting.push(resolve));
  // The slot was handed over as it stands: `running` already counts it.
  return releaser();
}

/**
 * Takes a slot at once, even when all are busy (a test that acts on its process while it runs
 * cannot queue); runs that queue wait for it too.
 */
export function occupySlotNow(): () => void {
  running++;
  return releaser();
}

/** Frees the slot once, handing it straight to the next waiter unless the slots are over-full. */
function releaser(): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = running <= MAX_RUNNING ? waiting.shift() : undefined;
    if (next) next();
    else running--;
  };
}
