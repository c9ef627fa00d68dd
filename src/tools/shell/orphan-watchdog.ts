import { spawn } from 'node:child_process';
import { SESSION_MARK_PREFIX, MARK_VARIABLE } from './process-marks.ts';

/**
 * What the watchdog runs: it ignores the terminal's signals, waits for end-of-file on its stdin,
 * then kills every process whose environment carries the mark prefix ($1, a regular expression),
 * in rounds (one may fork while it looks), and ends.
 */
const SCRIPT = [
  "trap '' HUP INT TERM",
  'read -r _',
  'round=0',
  'while [ "$round" -lt 20 ]; do',
  '  found=',
  '  for file in $(grep -lsz "^$1" /proc/[0-9]*/environ); do',
  '    pid=${file#/proc/}; pid=${pid%/environ}',
  '    [ "$pid" = "$$" ] && continue',
  '    kill -KILL "$pid" 2>/dev/null && found=1',
  '  done',
  '  [ -z "$found" ] && exit 0',
  '  round=$((round + 1))',
  'done',
].join('\n');

let started = false;

/**
 * `kill -9` of Sylvan runs no exit hook, so the commands and MCP servers it started would run on.
 * A small shell beside them waits on a pipe whose other end only Sylvan holds (Node opens pipes
 * close-on-exec, so no child inherits it): when Sylvan is gone, however it ended, the pipe reads
 * end-of-file and the shell kills every process carrying this session's mark
 * (`process-marks.ts`). Linux only (marks are found in /proc); one `sh` a session, started with
 * the exit hook, neither keeping Sylvan alive nor in its process group (Ctrl-C and a hang-up of
 * the terminal do not reach it). After a normal exit the exit hook has already killed everything,
 * and the watchdog finds nothing.
 */
export function startOrphanWatchdog(): void {
  if (started || process.platform !== 'linux') return;
  started = true;
  const pattern = `${MARK_VARIABLE}=${SESSION_MARK_PREFIX.replaceAll('.', '\\.')}`;
  try {
    // Its own environment, no mark in it: it must not find itself.
    const watchdog = spawn('/bin/sh', ['-c', SCRIPT, 'sylvan-watchdog', pattern], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      // Not the workspace: a watchdog must not keep a folder busy (an unmount, a removal on macOS).
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C' },
    });
    watchdog.on('error', () => {
      // No /bin/sh: the exit hook still covers every exit but kill -9.
    });
    watchdog.stdin?.on('error', () => {});
    watchdog.unref();
    (watchdog.stdin as { unref?: () => void } | null)?.unref?.();
  } catch {
    // As above.
  }
}
