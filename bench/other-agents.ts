import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { BenchContext } from './context.ts';
import type { Section } from './report.ts';
import { formatMs, formatRatio, median } from './statistics.ts';

/** The terminal agents users compare Sylvan with, by the command each installs. */
const AGENTS = ['qwen', 'gemini', 'pi', 'claude'] as const;
const ROUNDS = 5;

function onPath(command: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Wall time of one whole process, or undefined when it failed. */
function timed(file: string, args: readonly string[], context: BenchContext): number | undefined {
  const start = performance.now();
  const result = spawnSync(file, args, { cwd: context.workspace, env: { ...process.env, ...context.env }, stdio: 'ignore', timeout: 60_000 });
  const elapsed = performance.now() - start;
  return result.status === 0 ? elapsed : undefined;
}

/**
 * `--version` of each agent found on the PATH beside Sylvan's, interleaved round by round;
 * an agent that is not installed is skipped and named as skipped.
 */
export function measureOtherAgents(context: BenchContext): Section {
  const sylvan = join(context.projectRoot, 'bin', 'sylvan.js');
  const found = AGENTS.map((name) => ({ name, path: onPath(name) }));
  const present = found.filter((agent): agent is { name: (typeof AGENTS)[number]; path: string } => agent.path !== undefined);
  const skipped = found.filter((agent) => agent.path === undefined).map((agent) => agent.name);
  const sylvanTimes: number[] = [];
  const times = new Map<string, number[]>(present.map((agent) => [agent.name, []]));
  const failed = new Set<string>();
  if (present.length > 0) {
    for (let round = 0; round <= ROUNDS; round++) {
      const own = timed(process.execPath, [sylvan, '--version'], context);
      if (round > 0 && own !== undefined) sylvanTimes.push(own);
      for (const agent of present) {
        const ms = timed(agent.path, ['--version'], context);
        if (ms === undefined) failed.add(agent.name);
        else if (round > 0) times.get(agent.name)?.push(ms);
      }
    }
  }
  const own = median(sylvanTimes);
  return {
    title: `--version of other terminal agents on this PATH (median of ${ROUNDS})`,
    rows:
      present.length === 0
        ? [{ measure: 'none found', result: 'skipped' }]
        : [
            { measure: 'sylvan --version (reference)', result: formatMs(own) },
            ...present.map((agent) => {
              const ms = median(times.get(agent.name) ?? []);
              return failed.has(agent.name) && Number.isNaN(ms)
                ? { measure: `${agent.name} --version`, result: 'failed to run' }
                : { measure: `${agent.name} --version`, result: `${formatMs(ms)}  ${formatRatio(ms / own)} sylvan` };
            }),
          ],
    notes: skipped.length > 0 ? [`not on the PATH, skipped: ${skipped.join(', ')}.`] : undefined,
  };
}
