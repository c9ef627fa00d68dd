import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanCliEnvironment } from '../test/helpers/cli-environment.ts';

/** What every measurement gets from `npm run bench`: where the project is, a clean place to run it. */
export interface BenchContext {
  projectRoot: string;
  /** An empty temporary folder, the working directory and HOME of every process started. */
  workspace: string;
  /** A clean environment: no keys, no colour, Sylvan's home inside the workspace, mock model without delay. */
  env: Record<string, string>;
  /** Counted rounds of each paired measurement (one more runs first to warm caches). */
  rounds: number;
  progress(line: string): void;
}

export function createContext(projectRoot: string, rounds: number, progress: (line: string) => void): BenchContext & { dispose(): void } {
  const workspace = mkdtempSync(join(tmpdir(), 'sylvan-bench-'));
  return {
    projectRoot,
    workspace,
    rounds,
    progress,
    env: cleanCliEnvironment(workspace),
    dispose: () => rmSync(workspace, { recursive: true, force: true }),
  };
}
