import { startCli, type StartCliOptions } from './start-cli.ts';

export { tempWorkspace, tsxLoader } from './start-cli.ts';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export type CliOptions = StartCliOptions;

/** Runs the CLI as a process to the end (stdin written, default empty, then closed) and collects what a user would see. */
export async function runCli(options: CliOptions = {}): Promise<CliResult> {
  const { code, signal, stdout, stderr } = await startCli({ ...options, stdin: options.stdin ?? '' }).exited;
  return { code, signal, stdout, stderr };
}
