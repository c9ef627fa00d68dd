import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanCliEnvironment } from './cli-environment.ts';
import { killAtEnd, occupySlotNow, processSlot, tempFolder, testFileEnding } from './children.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The built CLI, as a user starts it: `npm test` builds dist/ first (test/run-suite.mjs). Starting
 * the source through tsx compiled the whole program again on every start, ~4.5x the CPU.
 */
export const cliEntry = join(projectRoot, 'bin', 'sylvan.js');
/** A bare `--import tsx` is resolved from the child's cwd, a temp dir without node_modules: name the loader by its URL. */
export const tsxLoader = import.meta.resolve('tsx');

/** A temp dir to start Sylvan in, with its own SYLVAN_HOME; deleted when the test file ends. */
export function tempWorkspace(prefix = 'sylvan-test-'): string {
  return tempFolder(prefix);
}

/** The default safety net: far above what any single CLI run needs on a loaded 2-core machine. */
export const DEFAULT_KILL_AFTER_MS = 60_000;

export interface StartCliOptions {
  args?: string[];
  /** Written to stdin, which is then closed. Without it stdin stays open. */
  stdin?: string;
  /** Added to a clean environment: no keys from the developer's shell leak into a test. */
  env?: Record<string, string>;
  /** Defaults to a fresh temp dir. */
  cwd?: string;
  /** SIGKILL after this long: a safety net, not a timing assertion. Default 60 s. */
  killAfterMs?: number;
}

export interface ExitedCli {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the safety net killed it: the CLI hung. */
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
 * Starts the built CLI as a process (clean environment, a temp cwd with its own
 * SYLVAN_HOME, no colour) and hands back the child, for tests that act while it runs. It starts at
 * once (taking one of the file's process slots even when all are busy) and is killed when the test
 * file ends if it is still running; a test should kill it itself when it ends (`killWhenDone`).
 */
export function startCli(options: StartCliOptions = {}): RunningCli {
  return launch(options, occupySlotNow());
}

/** Runs the CLI to the end: stdin (default empty) is written and closed. Waits for a process slot first. */
export async function runCliTimed(options: StartCliOptions = {}): Promise<ExitedCli> {
  const release = await processSlot();
  return launch({ ...options, stdin: options.stdin ?? '' }, release).exited;
}

function launch(options: StartCliOptions, release: () => void): RunningCli {
  if (testFileEnding()) {
    release();
    throw new Error('The test file ended before this CLI run could start: no test awaited it.');
  }
  const cwd = options.cwd ?? tempWorkspace();
  const env: Record<string, string> = {
    ...cleanCliEnvironment(cwd),
    ...options.env,
  };
  const started = performance.now();
  const child = killAtEnd(spawn(process.execPath, [cliEntry, ...(options.args ?? [])], {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  }));
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
