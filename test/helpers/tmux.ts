import { execFileSync, spawnSync } from 'node:child_process';
import { cliEntry, tsxLoader } from './start-cli.ts';

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** Whether tmux can run here (tests that need it are skipped otherwise). */
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface TmuxPane {
  /** The visible screen as text, one line per row. */
  capture(): string;
  /** Polls the screen until `check` passes; fails after `ms` with what never showed and the last screen. */
  waitFor(check: (screen: string) => boolean, what: string, ms?: number): Promise<string>;
  /** tmux send-keys arguments: literal text, or key names such as Enter, C-j, Left. */
  keys(...keys: string[]): void;
  resize(columns: number): void;
  /** Ends this test's own tmux server (its own socket), and with it the CLI. */
  stop(): void;
}

/** The REPL from source in a detached tmux pane of `columns`×`rows`, on a private tmux socket. */
export function startInTmux(env: Record<string, string>, cwd: string, size: { columns: number; rows: number }): TmuxPane {
  const socket = `sylvan-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const variables = Object.entries({ NO_COLOR: '1', SYLVAN_NO_NODE_WARNING: '1', ...env }).map(([key, value]) => `${key}=${quote(value)}`);
  const command = `cd ${quote(cwd)} && exec env ${variables.join(' ')} ${[process.execPath, '--import', tsxLoader, cliEntry].map(quote).join(' ')}`;
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'sylvan', '-x', String(size.columns), '-y', String(size.rows), command);
  tmux('set-option', '-g', 'escape-time', '0');
  tmux('set-option', '-g', 'remain-on-exit', 'on');
  const capture = () => tmux('capture-pane', '-p', '-t', 'sylvan');
  return {
    capture,
    waitFor(check, what, ms = 20_000) {
      const deadline = Date.now() + ms;
      return new Promise((resolve, reject) => {
        const poll = () => {
          const screen = capture();
          if (check(screen)) return resolve(screen);
          if (Date.now() > deadline) return reject(new Error(`never saw ${what}; the screen was:\n${screen}`));
          setTimeout(poll, 50);
        };
        poll();
      });
    },
    keys: (...keys) => void tmux('send-keys', '-t', 'sylvan', ...keys),
    resize: (columns) => void tmux('resize-window', '-t', 'sylvan', '-x', String(columns)),
    stop: () => {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
    },
  };
}
