import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('./cli-entry.ts', import.meta.url));
/** tsx by absolute URL: the CLI runs in a temp dir, where a bare `--import tsx` would not resolve. */
export const tsxLoader = import.meta.resolve('tsx');
const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  args?: string[];
  /** Written to stdin, which is then closed. */
  stdin?: string;
  /** Added to a clean environment: no keys from the developer's shell leak into a test. */
  env?: Record<string, string>;
  cwd?: string;
  /** Kill the process after this long (a safety net, not a timing assertion). */
  killAfterMs?: number;
}

/** A temp dir to start Sylvan in, with its own SYLVAN_HOME. */
export function tempWorkspace(prefix = 'sylvan-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Runs the CLI as a process and collects what a user would see. */
export function runCli(options: CliOptions = {}): Promise<CliResult> {
  const cwd = options.cwd ?? tempWorkspace();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: cwd,
    SYLVAN_HOME: join(cwd, '.sylvan-home'),
    SYLVAN_MOCK_DELAY_MS: '0',
    SYLVAN_NO_NODE_WARNING: '1',
    NO_COLOR: '1',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, entry, ...(options.args ?? [])], {
      cwd,
      env: { ...env, TSX_TSCONFIG_PATH: join(projectRoot, 'tsconfig.json') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
