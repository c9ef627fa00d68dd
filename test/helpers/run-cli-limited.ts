import { rmSync } from 'node:fs';
import { runCli as runCliNow, tempWorkspace as makeWorkspace, type CliOptions, type CliResult } from './run-cli.ts';

export type { CliOptions, CliResult };

/** More CLI processes at once than this only make them fight over the CPU. */
const MAX_RUNNING = 3;
let running = 0;
const waiting: (() => void)[] = [];
const workspaces: string[] = [];
const pending = new Set<Promise<CliResult>>();

/** Waits for a free slot; the returned function frees it, handing it straight to the next waiter. */
async function slot(): Promise<() => void> {
  if (running < MAX_RUNNING) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  return () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}

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
 * `runCli` from run-cli.ts, with at most three processes running at once per test file, so a
 * file may start all its runs together and let them overlap. Without `cwd`, it runs in a fresh
 * `tempWorkspace()`.
 */
export function runCli(options: CliOptions = {}): Promise<CliResult> {
  const run = (async () => {
    const release = await slot();
    try {
      return await runCliNow({ ...options, cwd: options.cwd ?? tempWorkspace() });
    } finally {
      release();
    }
  })();
  pending.add(run);
  void run.finally(() => pending.delete(run)).catch(() => {});
  return run;
}
