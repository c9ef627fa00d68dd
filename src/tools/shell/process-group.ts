import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { startOrphanWatchdog } from './orphan-watchdog.ts';
import { hangUpAnswered } from '../../shared/hang-up.ts';
import { killSessionProcessesNow, markedProcesses, MARK_VARIABLE, newProcessMark } from './process-marks.ts';

/** Process groups still running; killed when Sylvan exits so no command outlives it (marked descendants too). */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

/** A started command: its process (the group leader) and the mark its descendants carry. */
export interface CommandGroup {
  child: ChildProcess;
  mark: string;
}

/**
 * Starts `file args` (a shell, or the sandbox around one) in `cwd`: stdin from /dev/null (or a pipe), stdout
 * and stderr piped, no terminal, in a process group of its own so the whole tree can be stopped at
 * once, and with a mark in its environment (`process-marks.ts`) so a descendant that leaves the
 * group is found all the same.
 */
export function spawnCommandGroup(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, stdin: 'ignore' | 'pipe' = 'ignore'): CommandGroup {
  installExitHook();
  const mark = newProcessMark('command');
  const child = spawn(file, args, { cwd, env: { ...env, [MARK_VARIABLE]: mark }, stdio: [stdin, 'pipe', 'pipe'], detached: true });
  if (child.pid !== undefined) liveGroups.add(child.pid);
  return { child, mark };
}

/**
 * Whether any process of the group is still alive. A killed orphan stays a zombie until init reaps
 * it, which can take a second; on Linux zombies are not counted, since they run nothing.
 */
export function isGroupAlive(groupId: number): boolean {
  if (!exists(-groupId)) return false;
  return process.platform !== 'linux' || hasLivingMember(groupId);
}

/** Whether a signal could reach `target` (a pid, or a group as -id): it exists, zombies included. */
function exists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function hasLivingMember(groupId: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (stat?.group === groupId && stat.running) return true;
  }
  return false;
}

/** A process's group and whether it runs (not a zombie), from /proc; undefined once it is gone. */
function statOf(pid: number | string): { group: number; running: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid pgrp …": the name may hold spaces and parentheses, so read after the last ")".
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { group: Number(group), running: state !== 'Z' && state !== 'X' };
  } catch {
    return undefined; // It ended while we looked.
  }
}

/** Sends `signal` to `target` (a pid, or a group as -id), if it is still there. */
function signalProcess(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Stops every process of the group, and every process carrying `mark` (one that left the group
 * with `setsid`): SIGTERM, then SIGKILL for whatever is left after `graceMs`. Resolves once all
 * are gone (or, at worst, a second after SIGKILL). Never throws.
 */
export async function terminateGroup(groupId: number, graceMs: number, mark?: string): Promise<void> {
  // A dying process's environment reads empty before it is gone, and so does one that execs with
  // an empty environment: each one found marked is followed by its pid until it has ended, and so
  // is the group it leads or joined (setsid), where what it starts after the exec lives.
  const followed = new Set<number>();
  const groups = new Set([groupId]);
  const followedAlive = () => [...groups].some(isGroupAlive) || [...followed].some(isRunning);
  /** Signals the groups and the marked processes; whether anything may still be alive. */
  const stop = (signal: NodeJS.Signals): boolean => {
    for (const pid of mark === undefined ? [] : markedProcesses(mark)) {
      followed.add(pid);
      const group = statOf(pid)?.group;
      // A command's processes are in sessions it made (it starts detached), never in Sylvan's group.
      if (group !== undefined && group > 1 && group !== ownGroup()) groups.add(group);
    }
    for (const group of groups) signalProcess(-group, signal);
    // One that was marked stays ours after an exec with an empty environment; one signal each (a
    // second SIGTERM would reach what a trap on the first exec-ed).
    for (const pid of followed) {
      const stat = statOf(pid);
      if (stat?.running && !groups.has(stat.group)) signalProcess(pid, signal);
    }
    return followedAlive();
  };
  const alive = () => followedAlive() || (mark !== undefined && markedProcesses(mark).length > 0);
  // The common case, a command that left nothing behind, costs one scan of /proc.
  if (stop('SIGTERM') && !(await waitUntilGone(alive, graceMs))) {
    // Rounds: a process may fork between a scan and its kill.
    for (let round = 0; round < 5 && stop('SIGKILL'); round++) await waitUntilGone(alive, 200);
  }
  liveGroups.delete(groupId);
}

/** Sylvan's own process group, which no command's process can join (it is in another session). */
const ownGroup = (): number | undefined => statOf(process.pid)?.group;

/** Whether `pid` still runs: not ended, and not a zombie (Linux; elsewhere, whether it exists). */
function isRunning(pid: number): boolean {
  return process.platform === 'linux' ? statOf(pid)?.running === true : exists(pid);
}

/** A scan of /proc takes tens of milliseconds on a busy machine: polled no faster than this. */
const POLL_MS = 50;

async function waitUntilGone(alive: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (alive()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

function killAllNow(): void {
  for (const groupId of liveGroups) signalProcess(-groupId, 'SIGKILL');
  liveGroups.clear();
  killSessionProcessesNow();
}

/**
 * On exit, and on SIGTERM or SIGHUP (which skip 'exit' handlers), every live group is killed; a
 * SIGHUP the REPL answers ends through its way out, whose ending runs the 'exit' handlers.
 * When this hook is the signal's only listener it re-raises the signal afterwards, so Sylvan still
 * ends the way that signal ends a process. `kill -9` of Sylvan cannot be caught: the orphan
 * watchdog, started here, covers it.
 */
export function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  startOrphanWatchdog();
  process.on('exit', killAllNow);
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      // The REPL's way out runs hooks of its own first, and kills every group as it ends (shared/hang-up.ts).
      if (signal === 'SIGHUP' && hangUpAnswered()) return;
      killAllNow();
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}
