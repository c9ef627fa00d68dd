import { rmSync } from 'node:fs';
import { runCli as runCliNow, tempWorkspace as makeWorkspace, type CliOptions, type CliResult } from './run-cli.ts';

export type { CliOptions, CliResult };

const workspaces: string[] = [];
const pending = new Set<Promise<CliResult>>();

/** `tempWorkspace` from run-cli.ts, remembered so `removeTempWorkspaces` can delete it. */
export function tempWorkspace(prefix?: string): string {
  const folder = makeWorkspace(prefix);
  workspaces.push(folder);
  return folder;
}

/** For an `after` hook: waits for every run still going (even one no test awaited), then deletes every workspace made here. */
export async function removeTempWorkspaces(): Promise<void> {
  await Promise.allSettled([...pending]);
  for (const folder of workspaces.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/**
 * `runCli` from run-cli.ts (at most three processes at once per test file, the one limiter every
 * CLI helper shares), so a file may start all its runs together and let them overlap. Without
 * `cwd`, it runs in a fresh `tempWorkspace()`.
 */
export function runCli(options: CliOptions = {}): Promise<CliResult> {
  const run = runCliNow({ ...options, cwd: options.cwd ?? tempWorkspace() });
  pending.add(run);
  void run.finally(() => pending.delete(run)).catch(() => {});
  return run;
}
