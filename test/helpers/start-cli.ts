import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI's entry from source, as bin/sylvan.js runs the built one. */
export const cliEntry = fileURLToPath(new URL('./cli-entry.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
/** A bare `--import tsx` is resolved from the child's cwd, a temp dir without node_modules: name the loader by its URL. */
export const tsxLoader = import.meta.resolve('tsx');

/** A temp dir to start Sylvan in, with its own SYLVAN_HOME. */
export function tempWorkspace(prefix = 'sylvan-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface StartCliOptions {
  args?: string[];
  /** Written to stdin, which is then closed. Without it stdin stays open. */
  stdin?: string;
  /** Added to a clean environment: no keys from the developer's shell leak into a test. */
  env?: Record<string, string>;
  /** Defaults to a fresh temp dir. */
  cwd?: string;
  /** SIGKILL after this long: a safety net, not a timing assertion. Default 30 s. */
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
 * Starts the CLI from source as a process (clean environment, a temp cwd with its own
 * SYLVAN_HOME, no colour) and hands back the child, for tests that act while it runs.
 */
export function startCli(options: StartCliOptions = {}): RunningCli {
  const cwd = options.cwd ?? tempWorkspace();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: cwd,
    SYLVAN_HOME: join(cwd, '.sylvan-home'),
    SYLVAN_MOCK_DELAY_MS: '0',
    SYLVAN_NO_NODE_WARNING: '1',
    NO_COLOR: '1',
    ...options.env,
    TSX_TSCONFIG_PATH: join(projectRoot, 'tsconfig.json'),
  };
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', tsxLoader, cliEntry, ...(options.args ?? [])], {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let killedBySafetyNet = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => {
    killedBySafetyNet = true;
    child.kill('SIGKILL');
  }, options.killAfterMs ?? 30_000);
  const exited = new Promise<ExitedCli>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, killedBySafetyNet, elapsedMs: performance.now() - started });
    });
  });
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  return { child, exited };
}

/** Runs the CLI to the end: stdin (default empty) is written and closed. */
export function runCliTimed(options: StartCliOptions = {}): Promise<ExitedCli> {
  return startCli({ ...options, stdin: options.stdin ?? '' }).exited;
}
