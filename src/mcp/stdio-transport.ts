import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { MessageLines, MessageTooLargeError } from './message-lines.ts';
import type { StderrTail } from './stderr-tail.ts';
import { maskVanished, type CommandSandbox, type Invocation } from '../sandbox/command-sandbox.ts';
import { executableOnPath } from '../sandbox/find-sandbox.ts';
import { installExitHook } from '../tools/shell/process-group.ts';
import { MARK_VARIABLE, newProcessMark, signalMarked } from '../tools/shell/process-marks.ts';

/** What a server inherits from Sylvan's environment: enough to run, never an API key. */
const INHERITED = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR', 'SystemRoot'];

/** Whether `command` names a program that can be started: a path (from `cwd`) or a name on `path`. */
function programExists(command: string, path: string | undefined, cwd: string): boolean {
  if (!command.includes('/')) return executableOnPath(command, path) !== undefined;
  try {
    accessSync(resolve(cwd, command), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The server broke the protocol (a message that is not JSON-RPC, or too large) and was ended: the connection is lost. */
export class TransportFailure extends Error {
  override name = 'TransportFailure';
}

export interface StdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  stderr: StderrTail;
  /**
   * The session's sandbox. With `full` (the server's settings say `"sandbox": true`) it runs fenced
   * like a command; otherwise in the server fence (`CommandSandbox.wrapServer`), unless `"sandbox": false`.
   */
  sandbox?: { fence: CommandSandbox; full: boolean; network: boolean };
}

/** bubblewrap's failure to mount is one short line: more stderr than this is a server that ran. */
const MASK_FAILURE_CHARS = 4096;

/**
 * An MCP stdio transport of our own rather than the SDK's, for three things it does not do:
 * the server runs in its own process group (the terminal's Ctrl-C stops a turn, not the server),
 * its stderr is kept bounded instead of reaching the terminal, and it can be killed synchronously
 * as Sylvan exits, whatever way it exits.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly lines = new MessageLines();
  private closing: Promise<void> | undefined;
  /** Carried by the server and its descendants: one that left the process group still ends with it. */
  private readonly mark = newProcessMark('mcp');
  /** How the server was started, and what it did before it ended: enough to tell a start the sandbox failed. */
  private started: { invocation: Invocation; stderr: string; wroteStdout: boolean; exitCode?: number | null } | undefined;

  constructor(private readonly options: StdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    // The sandbox probe runs in the background from start-up: waited for, not redone here, blocking.
    await this.options.sandbox?.fence.ready();
    // Closed while that was awaited (the session ended as it began): nothing may start after close().
    if (this.closing) throw new Error(`${this.options.command} was closed before it started`);
    return new Promise((resolve, reject) => {
      const env: Record<string, string> = {};
      for (const name of INHERITED) if (process.env[name] !== undefined) env[name] = process.env[name];
      const sandbox = this.options.sandbox;
      let invocation: Invocation;
      try {
        invocation = !sandbox
          ? { file: this.options.command, args: [...this.options.args], env: {}, sandboxed: false }
          : sandbox.full
          ? sandbox.fence.wrap(this.options.command, this.options.args, { network: sandbox.network })
          : sandbox.fence.wrapServer(this.options.command, this.options.args);
      } catch (error) {
        return reject(error);
      }
      // Started through the sandbox program, a missing command would show only as bwrap's exit: say it as Node would.
      const childEnv = { ...env, ...this.options.env };
      if (invocation.file !== this.options.command && !programExists(this.options.command, childEnv.PATH, this.options.cwd)) {
        return reject(new Error(`command not found: ${this.options.command}`));
      }
      installExitHook();
      const child = spawn(invocation.file, invocation.args, {
        cwd: this.options.cwd,
        env: { ...env, ...this.options.env, ...invocation.env, [MARK_VARIABLE]: this.mark },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      const started: NonNullable<typeof this.started> = { invocation, stderr: '', wroteStdout: false };
      this.started = started;
      child.once('exit', (code) => (started.exitCode = code));
      child.once('error', (error: NodeJS.ErrnoException) => {
        const message =
          error.code === 'ENOENT' ? `command not found: ${this.options.command}` : `could not start ${this.options.command}: ${error.message}`;
        reject(new Error(message));
        this.onerror?.(new Error(message));
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', () => {});
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        if (started.stderr.length < MASK_FAILURE_CHARS) started.stderr += chunk;
        this.options.stderr.append(chunk);
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        started.wroteStdout = true;
        this.read(chunk);
      });
    });
  }

  /**
   * Whether the server never ran: started in the sandbox, it ended before writing anything because a
   * path the sandbox hides vanished before bubblewrap mounted over it (`maskVanished`). Such a start
   * may be tried once more, with the paths looked up again. Known once the process has exited.
   */
  get endedOnVanishedMask(): boolean {
    const started = this.started;
    if (!started || started.wroteStdout || started.exitCode === undefined) return false;
    return maskVanished(started.invocation, started.exitCode, '', started.stderr);
  }

  /** Whatever the server writes, one bad or oversized message ends it with one error: it never throws into the stream. */
  private read(chunk: Buffer): void {
    let lines: string[];
    try {
      lines = this.lines.push(chunk);
    } catch (error) {
      this.fail(error instanceof MessageTooLargeError ? error.message : 'it wrote something on stdout that is not an MCP message');
      return;
    }
    for (const line of lines) {
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch {
        this.fail('it wrote something on stdout that is not an MCP message');
        return;
      }
      this.onmessage?.(message);
    }
  }

  private fail(reason: string): void {
    this.onerror?.(new TransportFailure(reason));
    this.kill();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('the server is not running'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /**
   * Closes stdin and gives the server a moment to finish (a cancel notification just sent must
   * reach it), then ends its process group. Bounded: at most `graceMs` before the kill.
   */
  close(graceMs = 500): Promise<void> {
    this.closing ??= this.closeGracefully(graceMs);
    return this.closing;
  }

  private async closeGracefully(graceMs: number): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin?.end();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.kill();
  }

  /** Ends the server and its process group now; safe to call from a process 'exit' handler. */
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    const child = this.child;
    if (!child?.pid) return;
    child.stdin?.destroy();
    try {
      if (process.platform === 'win32') child.kill(signal);
      else process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
    // Descendants that left the group (setsid) carry the mark; a sandboxed server's die with its PID namespace.
    signalMarked(this.mark, signal);
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.unref();
  }
}
