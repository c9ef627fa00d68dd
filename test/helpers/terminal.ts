import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliEntry } from './cli.ts';
import { tempWorkspace } from './temp-workspace.ts';
import { alive, endAtFileEnd, occupySlotNow } from './children.ts';
import { eventually } from './deadline.ts';

/** How long any one thing on the screen may take to appear on a loaded machine: a safety net. */
export const SCREEN_DEADLINE_MS = 60_000;
/** How long a closed terminal's CLI may take to go after its hang-up before it is killed. */
const HANG_UP_GRACE_MS = 5_000;

const run = promisify(execFile);
const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export interface TerminalOptions {
  /** The workspace the CLI starts in (HOME too, unless `env` says otherwise). */
  cwd: string;
  /** Added to a clean environment: nothing from the developer's shell leaks in. */
  env?: Record<string, string>;
  columns?: number;
  rows?: number;
  args?: string[];
  /** Styled output (chalk on); without it the CLI runs with NO_COLOR=1. */
  colour?: boolean;
  /**
   * A FIFO (mkfifo) the CLI waits on: it starts once a line is written to it. Keys typed before then
   * reach the terminal in its cooked mode, as while a slow `npx sylvan` starts.
   */
  startsOnLineIn?: string;
}

export interface Terminal {
  /**
   * Resolves when `pattern` matches what the CLI writes from this call on (the raw bytes, escapes
   * and all; the first wait sees the start too); after 60 s fails saying `what` never came, with
   * everything written so far.
   */
  expect(pattern: RegExp, what: string): Promise<void>;
  /** Types `line` and Enter, and resolves when `next` matches what the CLI writes after it (as `expect`). */
  say(line: string, next: RegExp, what: string): Promise<void>;
  /** Resolves with the visible screen once it matches `pattern` (or passes it); fails after 60 s with the last screen. */
  expectScreen(pattern: RegExp | ((screen: string) => boolean), what: string): Promise<string>;
  /** The visible screen as tmux shows it, one line a row (`styled`: with SGR; `history`: with the scrollback). */
  screen(options?: { styled?: boolean; history?: boolean }): Promise<string>;
  /** Every byte the CLI wrote to the terminal so far. */
  readonly output: string;
  /**
   * Types raw bytes, as a terminal sends keys: '\r' Enter, '\x03' Ctrl-C, '\x1b[D' ←. Keys go out
   * in call order, after this returns: an `expect` called next sees everything they cause. A key
   * that could not be sent fails the next wait.
   */
  type(keys: string): void;
  /** tmux key names (Enter, C-c, C-j, Escape), queued with `type`. */
  keys(...names: string[]): void;
  /** Resizes the window; the CLI gets SIGWINCH. */
  resize(columns: number, rows?: number): Promise<void>;
  /** The CLI's own process id (for signals). */
  readonly pid: number;
  /** Resolves with the CLI's exit code (128 + n for signal n) once it ended; fails after 60 s. */
  exited(): Promise<number | null>;
  /** Hangs up (the CLI gets SIGHUP, as when a window closes), SIGKILL after 5 s, ends tmux. Idempotent. */
  close(): Promise<void>;
}

/**
 * The REPL from source in a real terminal: a detached tmux window of `columns`×`rows` (default
 * 100×40) on its own tmux server, typed at like a person would. Under tmux, util-linux `script`
 * records every byte the CLI writes and passes on its exit code, so a test can read the raw stream
 * (complete once the CLI exited) as well as the screen tmux rendered. Waits are on what the CLI
 * wrote or what the screen shows, each with a deadline. It takes one of the file's CLI process
 * slots; whatever a test leaves open is closed when the file ends, also when the test failed.
 */
export async function startTerminal(options: TerminalOptions): Promise<Terminal> {
  const folder = tempWorkspace('sylvan-terminal-');
  const socket = join(folder, 'tmux.sock');
  const log = join(folder, 'bytes.log');
  const pidFile = join(folder, 'cli.pid');
  const tmux = (...args: string[]) => run('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: options.cwd,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    SYLVAN_HOME: join(options.cwd, '.sylvan-home'),
    SYLVAN_NO_NODE_WARNING: '1',
    ...(options.colour ? {} : { NO_COLOR: '1' }),
    ...options.env,
  };
  const node = [process.execPath, cliEntry, ...(options.args ?? [])].map(quote).join(' ');
  const assignments = Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)).join(' ');
  // exec: the pid written is the CLI's, and no shell stays between script and node to change the exit code.
  const held = options.startsOnLineIn === undefined ? '' : `read -r _ < ${quote(options.startsOnLineIn)}; `;
  const inner = `echo $$ > ${quote(pidFile)}; ${held}cd ${quote(options.cwd)} && exec env -i ${assignments} ${node}`;
  const command = `exec script -qfec ${quote(`sh -c ${quote(inner)}`)} ${quote(log)}`;

  const release = occupySlotNow();
  const created = await tmux(
    '-f', '/dev/null', 'new-session', '-d', '-P', '-F', '#{pid}', '-s', 'sylvan', '-c', options.cwd,
    '-x', String(options.columns ?? 100), '-y', String(options.rows ?? 40), command,
    // The screen stays to be read after the CLI ended.
    ';', 'set-option', '-g', 'remain-on-exit', 'on',
  ).catch((error: Error) => {
    release();
    throw new Error(`tmux could not start the terminal (terminal tests need tmux and util-linux script): ${error.message}`);
  });
  const serverPid = Number(created.stdout.trim());

  const cliPid = () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) || undefined : undefined);
  const readLog = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
  const output = () => {
    const text = readLog();
    // script frames the log with a line of its own at each end.
    const start = text.indexOf('\n') + 1;
    const done = text.lastIndexOf('\nScript done on ');
    return start === 0 ? '' : text.slice(start, done >= start ? done : undefined);
  };

  // script's closing line, written once the CLI ended and every byte is in the log, carries its exit code.
  // (Not tmux's pane-died: a tmux server started from a test sometimes never reaps the pane's process.)
  const exitCode = async (): Promise<number | null> => {
    let footer: RegExpExecArray | null = null;
    await eventually(() => (footer = /\nScript done on [^\n]*/.exec(readLog())) !== null, SCREEN_DEADLINE_MS, 'the CLI to exit');
    release();
    const code = /COMMAND_EXIT_CODE="(\d+)"/.exec((footer as RegExpExecArray | null)?.[0] ?? '')?.[1];
    return code === undefined ? null : Number(code);
  };

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      const pid = cliPid();
      // As a closed window does. Killing tmux alone would not: script, between tmux and the CLI,
      // answers its own hang-up by typing Ctrl-D, which deletes a character while a line is typed.
      if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGHUP');
      await tmux('kill-server').catch(() => {});
      if (pid !== undefined) {
        await eventually(() => !alive(pid), HANG_UP_GRACE_MS, 'the CLI to end after its hang-up').catch(() => process.kill(pid, 'SIGKILL'));
      }
      release();
      unregister();
    })());
  const unregister = endAtFileEnd({
    close,
    kill() {
      const pid = cliPid();
      if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGHUP');
      if (alive(serverPid)) process.kill(serverPid, 'SIGTERM');
    },
  });

  // type and keys go out one after another, in the order they were called.
  let sent: Promise<unknown> = Promise.resolve();
  let failure: Error | undefined;
  const send = (what: string, sending: () => Promise<unknown>) => {
    sent = sent.then(sending).catch((error: Error) => {
      failure ??= new Error(`could not type ${what}: ${error.message}`);
    });
  };
  // As one write, the way a terminal sends a key's bytes: send-keys would send an escape sequence
  // key by key, and a lone ESC read apart from its "[D" is the Escape key. -r: LF stays LF.
  const paste = (keys: string) =>
    new Promise<void>((resolve, reject) => {
      const loading = execFile('tmux', ['-S', socket, 'load-buffer', '-b', 'typed', '-'], (error) => (error ? reject(error) : resolve()));
      loading.stdin?.end(keys);
    }).then(() => tmux('paste-buffer', '-d', '-r', '-b', 'typed', '-t', 'sylvan:'));
  let waited = false;
  const unlessFailed = <T>(value: T): T => {
    if (failure) throw failure;
    return value;
  };
  const screen = async (screenOptions: { styled?: boolean; history?: boolean } = {}) => {
    const args = ['capture-pane', '-p', '-t', 'sylvan:', ...(screenOptions.styled ? ['-e'] : []), ...(screenOptions.history ? ['-S', '-'] : [])];
    return (await tmux(...args)).stdout;
  };

  const terminal: Terminal = {
    async expect(pattern, what) {
      const from = waited ? output().length : 0;
      waited = true;
      await eventually(() => unlessFailed(pattern.test(output().slice(from))), SCREEN_DEADLINE_MS, what).catch((error: Error) => {
        throw new Error(`${error.message} The CLI wrote:\n${JSON.stringify(output())}`);
      });
    },
    async say(line, next, what) {
      const seen = terminal.expect(next, what);
      terminal.type(`${line}\r`);
      await seen;
    },
    async expectScreen(pattern, what) {
      const matches = typeof pattern === 'function' ? pattern : (screen: string) => pattern.test(screen);
      let last = '';
      await eventually(async () => unlessFailed(matches((last = await screen()))), SCREEN_DEADLINE_MS, what).catch((error: Error) => {
        throw new Error(`${error.message} The screen was:\n${last}`);
      });
      return last;
    },
    screen,
    get output() {
      return output();
    },
    type: (keys) => send(JSON.stringify(keys), () => paste(keys)),
    keys: (...names) => send(names.join(' '), () => tmux('send-keys', '-t', 'sylvan:', ...names)),
    resize: (columns, rows) => tmux('resize-window', '-t', 'sylvan:', '-x', String(columns), ...(rows ? ['-y', String(rows)] : [])).then(() => {}),
    get pid() {
      const pid = cliPid();
      if (pid === undefined) throw new Error('the CLI has not started in the terminal yet');
      return pid;
    },
    exited: () => exitCode().catch((error: Error) => {
      throw new Error(`${error.message} The CLI wrote:\n${JSON.stringify(output())}`);
    }),
    close,
  };
  return terminal;
}

/** `startTerminal`, then the first prompt on screen (`prompt`); a terminal that never shows it is closed. */
export async function startTerminalAtPrompt(options: TerminalOptions, prompt: RegExp = /^›/m): Promise<Terminal> {
  const terminal = await startTerminal(options);
  try {
    await terminal.expectScreen(prompt, 'the first prompt');
  } catch (error) {
    await terminal.close();
    throw error;
  }
  return terminal;
}

/** Types a line and Enter, as a user sends a message. */
export function ask(terminal: Terminal, line: string): void {
  terminal.type(line);
  terminal.keys('Enter');
}
