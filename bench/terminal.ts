import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** A command running in a pseudo-terminal (util-linux `script`), its screen collected as text. */
export interface Terminal {
  /** performance.now() when `script` was spawned. */
  readonly startedAt: number;
  /** Everything the terminal showed so far. */
  screen(): string;
  /** Resolves with performance.now() when `pattern` shows after character `from`; rejects after `timeoutMs`. */
  waitFor(pattern: RegExp | string, from: number, timeoutMs: number): Promise<number>;
  /** The command's own process id (the shell execs into it). */
  pid(): Promise<number>;
  /** Types into the terminal; resolves with performance.now() once the bytes are handed to `script`. */
  type(keys: string): number;
  /** Kills the whole terminal and waits for it to close. */
  close(): Promise<void>;
}

/** Starts `command` (argv) in a fresh pseudo-terminal with exactly `env` (and `size`, else none: 0×0). */
export function startTerminal(
  command: readonly string[],
  options: { cwd: string; env: Record<string, string>; size?: { columns: number; rows: number } },
): Terminal {
  const startedAt = performance.now();
  const size = options.size ? `stty cols ${options.size.columns} rows ${options.size.rows}; ` : '';
  const child: ChildProcessWithoutNullStreams = spawn(
    'script',
    ['-qfec', `${size}echo "pty-pid:$$"; exec ${command.map(quote).join(' ')}`, '/dev/null'],
    { cwd: options.cwd, env: { TERM: 'xterm', ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let screen = '';
  const waiters = new Set<() => void>();
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    screen += chunk;
    for (const check of [...waiters]) check();
  });
  child.on('close', () => {
    for (const check of [...waiters]) check();
  });
  let exited = false;
  child.on('exit', () => (exited = true));

  const waitFor = (pattern: RegExp | string, from: number, timeoutMs: number) =>
    new Promise<number>((resolve, reject) => {
      // A string is searched only where it was not looked for yet: a long answer arrives in thousands of chunks.
      let searchFrom = from;
      const found = () => {
        if (typeof pattern !== 'string') return pattern.test(screen.slice(from));
        if (screen.indexOf(pattern, searchFrom) >= 0) return true;
        searchFrom = Math.max(searchFrom, screen.length - pattern.length);
        return false;
      };
      const check = () => {
        if (found()) {
          finish();
          resolve(performance.now());
        } else if (exited) {
          finish();
          reject(new Error(`the terminal closed before it showed ${String(pattern)}; it showed:\n${screen.slice(-400)}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`the terminal did not show ${String(pattern)} within ${timeoutMs} ms; it showed:\n${screen.slice(-400)}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const pid = waitFor(/pty-pid:\d+/, 0, 20_000).then(() => Number(/pty-pid:(\d+)/.exec(screen)?.[1]));
  pid.catch(() => {});
  return {
    startedAt,
    screen: () => screen,
    waitFor,
    pid: () => pid,
    type(keys) {
      child.stdin.write(keys);
      return performance.now();
    },
    async close() {
      if (!exited) child.kill('SIGKILL');
      const commandPid = await pid.catch(() => undefined);
      if (commandPid !== undefined) {
        try {
          process.kill(commandPid, 'SIGKILL');
        } catch {
          // Already gone with its terminal.
        }
      }
      await closed;
    },
  };
}

/** Resident memory of a live process, in bytes (VmRSS), or undefined when it is gone. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU ticks (user + system, 10 ms each) a process has used so far. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Resolves once the process has used no CPU for `quietMs` (it finished loading whatever it loads in
 * the background), or after `limitMs`; with the milliseconds waited. A user typing gives it as long.
 */
export async function settled(pid: number, quietMs = 250, limitMs = 5_000): Promise<number> {
  const start = performance.now();
  let last = cpuTicks(pid);
  let quietSince = performance.now();
  while (performance.now() - start < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = cpuTicks(pid);
    if (now === undefined) break;
    if (now !== last) {
      last = now;
      quietSince = performance.now();
    } else if (performance.now() - quietSince >= quietMs) break;
  }
  return performance.now() - start;
}
