import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

/** Another running Sylvan appends to this session: a second writer would interleave its lines. */
export class SessionLockedError extends Error {
  override name = 'SessionLockedError';
  constructor(
    readonly sessionId: string,
    readonly pid: number | undefined,
  ) {
    super(`session ${sessionId} is open in another Sylvan${pid === undefined ? '' : ` (process ${pid})`}`);
  }
}

/**
 * Takes `<session>.lock` (created exclusively, holding this process id). A lock whose process is
 * gone (a crash, kill -9) is taken over. Returns the release function; throws `SessionLockedError`
 * when a live process holds it, or the system error when the lock cannot be made at all.
 */
export function acquireSessionLock(lockPath: string, sessionId: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          if (holderOf(lockPath) === process.pid) unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(lockPath);
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) throw new SessionLockedError(sessionId, holder);
      try {
        unlinkSync(lockPath);
      } catch {
        // Another process took it over first; the next attempt finds out.
      }
    }
  }
  throw new SessionLockedError(sessionId, holderOf(lockPath));
}

function holderOf(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's holder still runs. A Sylvan killed with kill -9 stays a zombie until its
 * parent reaps it, which a parent that never waits does not do: on Linux a zombie holds nothing.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return process.platform !== 'linux' || !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state …": the name may hold spaces and parentheses, so read after the last ")".
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}
