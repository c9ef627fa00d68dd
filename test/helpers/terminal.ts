import { spawn } from 'node:child_process';
import { killAtEnd, occupySlotNow } from './children.ts';
import { withDeadline } from './deadline.ts';
import { cliEntry, tsxLoader } from './start-cli.ts';

/** How long any one thing on the screen may take to appear on a loaded machine: a safety net. */
export const SCREEN_DEADLINE_MS = 60_000;

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export interface Terminal {
  /** Resolves when `pattern` appears in what is shown from now on; fails after 60 s saying what never came, with the screen. */
  expect(pattern: RegExp, what: string): Promise<void>;
  /** Types raw keys (bytes as a terminal sends them). */
  type(keys: string): void;
  /** The exit code of the CLI. */
  exited: Promise<number | null>;
  kill(): void;
  /** Every byte written to the terminal so far. */
  readonly screen: string;
}

/**
 * The REPL in a real pseudo-terminal (util-linux `script`) of the given width, typed at like a
 * person would. Waits are on what the screen shows, never on time. It takes one of the file's CLI
 * process slots, and `script` is killed when the test file ends whatever happened (the CLI under
 * it gets the terminal's hang-up).
 */
export function startInTerminal(env: Record<string, string>, cwd: string, options: { columns?: number } = {}): Terminal {
  const release = occupySlotNow();
  const size = `stty cols ${options.columns ?? 100} rows 40 2>/dev/null; `;
  // exec: no shell stays between script and node to catch a signal and change the exit code.
  const command = `${size}exec ${[process.execPath, '--import', tsxLoader, cliEntry].map(quote).join(' ')}`;
  const child = killAtEnd(
    spawn('script', ['-qfec', command, '/dev/null'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, TERM: 'xterm', NO_COLOR: '1', SYLVAN_NO_NODE_WARNING: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  child.stdin.on('error', () => {});
  child.once('close', release);
  let screen = '';
  const waiters: { pattern: RegExp; from: number; resolve: () => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(screen.slice(waiter.from))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    check();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    async expect(pattern, what) {
      const from = screen.length;
      const seen = new Promise<void>((resolve) => {
        waiters.push({ pattern, from, resolve });
        check();
      });
      await withDeadline(seen, SCREEN_DEADLINE_MS, what).catch((error: Error) => {
        throw new Error(`${error.message} The screen was:\n${JSON.stringify(screen)}`);
      });
    },
    type: (keys) => void child.stdin.write(keys),
    exited,
    kill: () => void child.kill('SIGKILL'),
    get screen() {
      return screen;
    },
  };
}
