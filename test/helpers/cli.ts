import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../../src/ui/cli-io.ts';
import { cleanCliEnvironment } from './cli-environment.ts';
import { killAtEnd, occupySlotNow, processSlot, testFileEnding } from './children.ts';
import { startDashScopeServer, type DashScopeServer, type Reply, type Responder } from './dashscope-server.ts';
import { closeAtEnd } from './served.ts';
import { tempWorkspace } from './temp-workspace.ts';

// The one way a test starts Sylvan. `runCli` runs it to the end, as a process (the built CLI) or in
// this process, alone or against a loopback DashScope; `startCli` hands back a live process to act
// on; `runCliTimed` runs the process to the end and reports a hang instead of throwing.
// A terminal (tmux) starts the built CLI through terminal.ts.

/** The environment every CLI here starts with: a module of its own, which bench/ uses outside the test runner. */
export { cleanCliEnvironment };

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The built CLI, as a user starts it: `npm test` builds dist/ first (test/run-suite.mjs). Starting
 * the source through tsx compiled the whole program again on every start, ~4.5x the CPU.
 */
export const cliEntry = join(projectRoot, 'bin', 'sylvan.js');

/** The default limit: far above what any single CLI run needs on a loaded 2-core machine. */
export const DEFAULT_KILL_AFTER_MS = 60_000;

/** What the loopback DashScope answers: a list of replies in order, or a function of each request. */
export type ServerScript = { respond: Responder } | { replies: Reply[] };

export interface CliOptions {
  args?: string[];
  /** Written to stdin, which is then closed. `runCli` closes an empty stdin without it; `startCli` leaves stdin open. */
  stdin?: string;
  /** Added to a clean environment (`cleanCliEnvironment`): no keys from the developer's shell leak into a test. */
  env?: Record<string, string>;
  /** Defaults to a fresh `tempWorkspace()`. */
  cwd?: string;
  /**
   * The limit: a run still going after this long hung (a spawned CLI is killed with SIGKILL). A
   * safety net, not a timing assertion. Default 60 s.
   */
  killAfterMs?: number;
  /**
   * `runCli` only: run src/cli.ts's `runCli` in this process (all of `sylvan` but the process
   * around it), with the same environment, `cwd`, piped stdin and collected output: ~0.05 s of CPU
   * a run against ~0.5 s for starting the built CLI (Node 20). For what was sent and shown; what
   * depends on the process itself (a signal, pipes, a terminal, children's environments, processes
   * left behind) needs the built CLI.
   */
  inProcess?: boolean;
  /** `runCli` only: start a loopback DashScope answering by this script (closed when the file ends) and point the CLI at it. */
  server?: ServerScript;
  /** With `server`: the only key it accepts, given to the CLI as DASHSCOPE_API_KEY. */
  key?: string;
  /** With `server`: leave DASHSCOPE_API_KEY out of the environment (the workspace's .env must hold `key`). */
  keyFromDotenv?: boolean;
}

export type ServerCliOptions = CliOptions & { server: ServerScript; key: string };

export interface CliResult {
  code: number | null;
  /** The signal that ended the process; always null in process. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ServerRun {
  server: DashScopeServer;
  result: CliResult;
  /** The working directory; SYLVAN_HOME (sessions) lives inside it. */
  cwd: string;
}

export interface ExitedCli extends CliResult {
  /** True when the limit killed it: the CLI hung. */
  killedBySafetyNet: boolean;
  /** From spawn to close. */
  elapsedMs: number;
}

export interface RunningCli {
  /** The live process, for signals (`child.kill('SIGINT')`). */
  child: ChildProcessWithoutNullStreams;
  exited: Promise<ExitedCli>;
}

/**
 * Runs `sylvan ARGS` to the end (stdin written, default empty, then closed) and collects what a
 * user would see. It starts now; a failure is left to the test that awaits it, so a file may start
 * all its runs at module level and let them overlap (a spawned run waits for one of the file's
 * three process slots). A run past its limit rejects, with what it had printed. With `server`, it
 * resolves to the server (its recorded requests), the result and the folder it ran in.
 */
export function runCli(options: ServerCliOptions): Promise<ServerRun>;
export function runCli(options?: CliOptions): Promise<CliResult>;
export function runCli(options: CliOptions = {}): Promise<CliResult | ServerRun> {
  const run = options.server ? againstServer(options as ServerCliOptions) : runToEnd(options);
  run.catch(() => {});
  return run;
}

async function againstServer(options: ServerCliOptions): Promise<ServerRun> {
  const { server: script, key, keyFromDotenv, ...cliOptions } = options;
  const server = closeAtEnd(await startDashScopeServer({ ...script, apiKey: key }));
  const cwd = cliOptions.cwd ?? tempWorkspace();
  const env = {
    ...(!keyFromDotenv && { DASHSCOPE_API_KEY: key }),
    DASHSCOPE_BASE_URL: server.baseURL,
    SYLVAN_MAX_RETRIES: '0',
    ...cliOptions.env,
  };
  return { server, cwd, result: await runToEnd({ ...cliOptions, cwd, env }) };
}

async function runToEnd(options: CliOptions): Promise<CliResult> {
  if (options.inProcess) return runInProcess(options);
  const { code, signal, stdout, stderr, killedBySafetyNet } = await runCliTimed(options);
  if (killedBySafetyNet) throw hungError('for the CLI to exit; it never did (killed)', options, stdout, stderr);
  return { code, signal, stdout, stderr };
}

function hungError(what: string, options: CliOptions, stdout: string, stderr: string): Error {
  const seconds = Math.round((options.killAfterMs ?? DEFAULT_KILL_AFTER_MS) / 1000);
  return new Error(`Waited ${seconds} s ${what}.\n--- stdout (end):\n${stdout.slice(-2000)}\n--- stderr (end):\n${stderr.slice(-2000)}`);
}

async function runInProcess(options: CliOptions): Promise<CliResult> {
  // Imported on first use: a file that only spawns the CLI does not load the whole program.
  const { runCli: cliMain } = await import('../../src/cli.ts');
  const cwd = options.cwd ?? tempWorkspace();
  const env = { ...cleanCliEnvironment(cwd), ...options.env };
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env,
    cwd,
    stdin: Readable.from(options.stdin === undefined || options.stdin === '' ? [] : [Buffer.from(options.stdin)]),
    stdout: { write: (text: string) => (stdout += text), isTTY: false, environment: env },
    stderr: { write: (text: string) => (stderr += text), isTTY: false, environment: env },
    onSigint: () => () => {},
  };
  let safetyNet: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    safetyNet = setTimeout(() => reject(hungError('for the in-process CLI run to end; it never did', options, stdout, stderr)), options.killAfterMs ?? DEFAULT_KILL_AFTER_MS);
  });
  try {
    const code = await Promise.race([cliMain(options.args ?? [], io), hung]);
    return { code, signal: null, stdout, stderr };
  } finally {
    clearTimeout(safetyNet);
  }
}

/**
 * Starts the built CLI as a process and hands back the child, for tests that act while it runs. It
 * starts at once (taking one of the file's process slots even when all are busy) and is killed
 * when the test file ends if it is still running; a test should kill it itself when it ends
 * (`killWhenDone`, children.ts).
 */
export function startCli(options: CliOptions = {}): RunningCli {
  return launch(options, occupySlotNow());
}

/** Runs the built CLI to the end (stdin default empty) after waiting for a process slot; a hang is reported, not thrown. */
export async function runCliTimed(options: CliOptions = {}): Promise<ExitedCli> {
  const release = await processSlot();
  return launch({ ...options, stdin: options.stdin ?? '' }, release).exited;
}

function launch(options: CliOptions, release: () => void): RunningCli {
  if (testFileEnding()) {
    release();
    throw new Error('The test file ended before this CLI run could start: no test awaited it.');
  }
  const cwd = options.cwd ?? tempWorkspace();
  const env: Record<string, string> = { ...cleanCliEnvironment(cwd), ...options.env };
  const started = performance.now();
  const child = killAtEnd(spawn(process.execPath, [cliEntry, ...(options.args ?? [])], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] }));
  child.once('close', release);
  let stdout = '';
  let stderr = '';
  let killedBySafetyNet = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => {
    killedBySafetyNet = true;
    child.kill('SIGKILL');
  }, options.killAfterMs ?? DEFAULT_KILL_AFTER_MS);
  const exited = new Promise<ExitedCli>((resolve, reject) => {
    child.on('error', (error) => {
      clearTimeout(killer);
      release();
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, killedBySafetyNet, elapsedMs: performance.now() - started });
    });
  });
  // A child that exits before reading its input must not fail the test with EPIPE.
  child.stdin.on('error', () => {});
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  return { child, exited };
}
