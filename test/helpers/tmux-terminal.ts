import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { cliEntry, tsxLoader } from './start-cli.ts';

const run = promisify(execFile);
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
let sessions = 0;
const open = new Set<TmuxTerminal>();
// A test that timed out never reached its finally: whatever is still open ends with the file.
after(() => Promise.all([...open].map((terminal) => terminal.close())));

export interface TmuxTerminal {
  /** Resolves when the visible screen matches; fails after `timeoutMs` with the screen in the message. */
  expect(pattern: RegExp, what: string, timeoutMs?: number): Promise<string>;
  /** The visible screen as text (`styled`: with SGR attributes, as tmux keeps them). */
  screen(options?: { styled?: boolean; history?: boolean }): Promise<string>;
  /** Every byte the program wrote to the terminal so far. */
  raw(): string;
  /** Types text literally. */
  type(text: string): Promise<void>;
  /** Sends tmux key names: Enter, C-c, Escape. */
  keys(...names: string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Sylvan in a real tmux window (its own tmux server: `close` ends it and the program with it) of the given size, from source, with a clean environment. Every
 * byte it writes is logged (pipe-pane) before it starts, so tests can read the raw stream as well
 * as the rendered screen. Waits poll the screen against a deadline; nothing sleeps to synchronise.
 */
export async function startInTmux(options: {
  cwd: string;
  env: Record<string, string>;
  columns?: number;
  rows?: number;
  args?: string[];
}): Promise<TmuxTerminal> {
  // The server's socket lives in the test's temp folder: it goes when the folder does.
  const socket = join(options.cwd, `.tmux-${(sessions += 1)}.sock`);
  const tmux = (...args: string[]) => run('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const rawLog = join(options.cwd, '.terminal-bytes.log');
  const gate = join(options.cwd, '.terminal-gate');
  writeFileSync(rawLog, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: options.cwd,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    SYLVAN_HOME: join(options.cwd, '.sylvan-home'),
    SYLVAN_NO_NODE_WARNING: '1',
    TSX_TSCONFIG_PATH: join(projectRoot, 'tsconfig.json'),
    ...options.env,
  };
  const command = [process.execPath, '--import', tsxLoader, cliEntry, ...(options.args ?? [])].map(quote).join(' ');
  const assignments = Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)).join(' ');
  // The program starts only once the gate file exists, so the byte log misses nothing; then the pane stays to be read.
  const script = `while [ ! -e ${quote(gate)} ]; do sleep 0.05; done; exec env -i ${assignments} ${command}`;
  await tmux('new-session', '-d', '-c', options.cwd, '-x', String(options.columns ?? 120), '-y', String(options.rows ?? 40), `sh -c ${quote(script)}`);
  try {
    await tmux('set-option', '-g', 'remain-on-exit', 'on');
    await tmux('pipe-pane', '-o', `cat >> ${quote(rawLog)}`);
  } catch (error) {
    await tmux('kill-server').catch(() => {});
    throw error;
  }
  writeFileSync(gate, '');

  const screen = async (screenOptions: { styled?: boolean; history?: boolean } = {}) => {
    const args = ['capture-pane', '-p', ...(screenOptions.styled ? ['-e'] : []), ...(screenOptions.history ? ['-S', '-'] : [])];
    return (await tmux(...args)).stdout;
  };
  const terminal: TmuxTerminal = {
    async expect(pattern, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        last = await screen();
        if (pattern.test(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`never saw ${what} within ${timeoutMs} ms; the screen was:\n${last}`);
    },
    screen,
    raw: () => readFileSync(rawLog, 'utf8'),
    async type(text) {
      await tmux('send-keys', '-l', text);
    },
    async keys(...names) {
      await tmux('send-keys', ...names);
    },
    async close() {
      open.delete(terminal);
      await tmux('kill-server').catch(() => {});
    },
  };
  open.add(terminal);
  return terminal;
}
