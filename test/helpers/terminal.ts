import { spawn } from 'node:child_process';
import { cliEntry, tsxLoader } from './start-cli.ts';

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export interface Terminal {
  /** Resolves when `pattern` appears in what is shown from now on; fails after 20 s saying what never came. */
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
 * person would. Waits are on what the screen shows, never on time.
 */
export function startInTerminal(env: Record<string, string>, cwd: string, options: { columns?: number } = {}): Terminal {
  const size = `stty cols ${options.columns ?? 100} rows 40 2>/dev/null; `;
  // exec: no shell stays between script and node to catch a signal and change the exit code.
  const command = `${size}exec ${[process.execPath, '--import', tsxLoader, cliEntry].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, TERM: 'xterm', NO_COLOR: '1', SYLVAN_NO_NODE_WARNING: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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
    expect(pattern, what) {
      const from = screen.length;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`never saw ${what}; the screen was:\n${JSON.stringify(screen)}`)), 20_000);
        waiters.push({ pattern, from, resolve: () => (clearTimeout(timer), resolve()) });
        check();
      });
    },
    type: (keys) => child.stdin.write(keys),
    exited,
    kill: () => child.kill('SIGKILL'),
    get screen() {
      return screen;
    },
  };
}
