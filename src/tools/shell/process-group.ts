import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Process groups still running; killed when Sylvan exits so no command outlives it. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

/**
 * Starts `command` with bash (or /bin/sh) in `cwd`: stdin from /dev/null, stdout and stderr piped,
 * no terminal, and in a process group of its own so the whole tree can be stopped at once.
 */
export function spawnCommandGroup(command: string, cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  installExitHook();
  const child = spawn(SHELL, ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  if (child.pid !== undefined) liveGroups.add(child.pid);
  return child;
}

/**
 * Whether any process of the group is still alive. A killed orphan stays a zombie until init reaps
 * it, which can take a second; on Linux zombies are not counted, since they run nothing.
 */
export function isGroupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return process.platform !== 'linux' || hasLivingMember(groupId);
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
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (name) state ppid pgrp …": the name may hold spaces and parentheses, so read after the last ")".
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === groupId && state !== 'Z' && state !== 'X') return true;
    } catch {
      // The process ended while we looked.
    }
  }
  return false;
}

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Stops every process of the group: SIGTERM, then SIGKILL for whatever is left after `graceMs`.
 * Resolves once the group is gone (or, at worst, a second after SIGKILL). Never throws.
 */
export async function terminateGroup(groupId: number, graceMs: number): Promise<void> {
  signalGroup(groupId, 'SIGTERM');
  if (!(await waitUntilGone(groupId, graceMs))) {
    signalGroup(groupId, 'SIGKILL');
    await waitUntilGone(groupId, 1000);
  }
  liveGroups.delete(groupId);
}

const POLL_MS = 25;

async function waitUntilGone(groupId: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (isGroupAlive(groupId)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

function killAllNow(): void {
  for (const groupId of liveGroups) signalGroup(groupId, 'SIGKILL');
  liveGroups.clear();
}

/**
 * On exit, and on SIGTERM or SIGHUP (which skip 'exit' handlers), every live group is killed.
 * When this hook is the signal's only listener it re-raises the signal afterwards, so Sylvan still
 * ends the way that signal ends a process. `kill -9` of Sylvan cannot be caught; see the README.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', killAllNow);
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      killAllNow();
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}
