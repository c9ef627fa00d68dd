import { Readable } from 'node:stream';
import { runCli } from '../../src/cli.ts';
import type { CliIo } from '../../src/ui/cli-io.ts';
import { cleanCliEnvironment } from './cli-environment.ts';
import { tempFolder } from './children.ts';
import type { CliOptions, CliResult } from './run-cli.ts';

/**
 * Runs `sylvan ARGS` in this process: the CLI's own `runCli` (src/cli.ts), which is all of
 * `sylvan` but the process around it, with the environment a spawned CLI gets
 * (`cleanCliEnvironment` plus `env`), `cwd` as its folder, `stdin` as a pipe and stdout and stderr
 * collected. Resolves like `runCli` (the exit code `main` would exit with, `signal` null).
 *
 * For print mode and piped input whose subject is what was sent and shown: about 0.05 s of CPU a
 * run against ~0.5 s for starting the built CLI (Node 20). What depends on the process itself —
 * exit by a signal, pipes, a terminal, commands' and MCP servers' environments (they inherit the
 * process's), processes left behind — is tested by starting the built CLI (run-cli.ts).
 */
export async function runCliInProcess(options: CliOptions = {}): Promise<CliResult> {
  const cwd = options.cwd ?? tempFolder();
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
  const limitMs = options.killAfterMs ?? 60_000;
  const hung = new Promise<never>((_, reject) => {
    safetyNet = setTimeout(
      () => reject(new Error(`Waited ${Math.round(limitMs / 1000)} s for the in-process CLI run to end; it never did.\n--- stdout (end):\n${stdout.slice(-2000)}\n--- stderr (end):\n${stderr.slice(-2000)}`)),
      limitMs,
    );
  });
  try {
    const code = await Promise.race([runCli(options.args ?? [], io), hung]);
    return { code, signal: null, stdout, stderr };
  } finally {
    clearTimeout(safetyNet);
  }
}

/** `runCliInProcess` started now, its failure left to the test that awaits it. */
export function startedInProcess(options: CliOptions = {}): Promise<CliResult> {
  const run = runCliInProcess(options);
  run.catch(() => {});
  return run;
}

/** A temp folder to run in, with its own SYLVAN_HOME; deleted when the test file ends. */
export const tempWorkspace = (prefix?: string): string => tempFolder(prefix);
