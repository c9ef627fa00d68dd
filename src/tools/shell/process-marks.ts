import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Every process Sylvan starts carries a mark in its environment, and so do its descendants, which
 * inherit it: a process that leaves its group with `setsid` can still be found (Linux, by scanning
 * /proc) and killed when its command ends, and every marked process when Sylvan exits. A process
 * that clears its own environment and then forks escapes the scan; the sandbox's PID namespace has
 * no such gap, so this is the rule where no sandbox runs.
 */
export const MARK_VARIABLE = 'SYLVAN_PROCESS_MARK';

const SESSION_MARK = `${process.pid}.${randomBytes(4).toString('hex')}`;
/** The start every mark of this session's has: `<session>.` (the orphan watchdog kills by it). */
export const SESSION_MARK_PREFIX = `${SESSION_MARK}.`;
let counter = 0;

/** A new mark for one command or server, under this session's. */
export function newProcessMark(label: string): string {
  counter += 1;
  return `${SESSION_MARK_PREFIX}${label.replace(/[^A-Za-z0-9_-]/g, '_')}${counter}`;
}

/**
 * The living processes whose environment holds `mark` exactly, or (`prefix`) any mark starting
 * with it. Empty where there is no /proc (macOS: process groups are all there is).
 */
export function markedProcesses(mark: string, prefix = false): number[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`${MARK_VARIABLE}=${mark}${prefix ? '' : '\0'}`);
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue; // Ended while we looked, or another user's.
    }
    // A zombie's environment reads empty: it runs nothing, and its parent will reap it.
    const at = environ.indexOf(needle);
    // Each variable ends with a NUL, the last one too.
    if (at === 0 || (at > 0 && environ[at - 1] === 0)) found.push(Number(entry));
  }
  return found;
}

/** Sends `signal` to every process marked `mark` (or under it, with `prefix`); how many there were. */
export function signalMarked(mark: string, signal: NodeJS.Signals, prefix = false): number {
  const pids = markedProcesses(mark, prefix);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
  return pids.length;
}

/**
 * Kills every process of this session that is still running, repeatedly until none is left (one
 * may fork while we look). Synchronous: safe in a process 'exit' handler.
 */
export function killSessionProcessesNow(): void {
  for (let round = 0; round < 20; round++) if (signalMarked(SESSION_MARK_PREFIX, 'SIGKILL', true) === 0) return;
}
