import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    env: {
      PATH: process.env.PATH ?? '',
      HOME: workspace,
      SYLVAN_HOME: join(workspace, '.sylvan-home'),
      SYLVAN_MOCK_DELAY_MS: '0',
      SYLVAN_NO_NODE_WARNING: '1',
      NO_COLOR: '1',
    },
    dispose: () => rmSync(workspace, { recursive: true, force: true }),
  };
}
