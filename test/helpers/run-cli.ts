import { DEFAULT_KILL_AFTER_MS, runCliTimed, type StartCliOptions } from './start-cli.ts';

export { tempWorkspace, tsxLoader } from './start-cli.ts';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export type CliOptions = StartCliOptions;

/**
 * Runs the CLI as a process to the end (stdin written, default empty, then closed) and collects what
 * a user would see. It waits for one of the test file's process slots first. A CLI still running
 * when its safety net (`killAfterMs`) kills it hung: that rejects, with what it had printed.
 */
export async function runCli(options: CliOptions = {}): Promise<CliResult> {
  const { code, signal, stdout, stderr, killedBySafetyNet } = await runCliTimed({ ...options, stdin: options.stdin ?? '' });
  if (killedBySafetyNet) {
    const seconds = Math.round((options.killAfterMs ?? DEFAULT_KILL_AFTER_MS) / 1000);
    throw new Error(`Waited ${seconds} s for the CLI to exit; it never did (killed).\n--- stdout (end):\n${stdout.slice(-2000)}\n--- stderr (end):\n${stderr.slice(-2000)}`);
  }
  return { code, signal, stdout, stderr };
}
