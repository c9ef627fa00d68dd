import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Its end of file deletes the workspaces, once the child processes that may still write there are killed.
import './children.ts';

const workspaces: string[] = [];

/**
 * A fresh temp folder (`prefix` + random) for a test to work in. A CLI started there by cli.ts
 * gets HOME and SYLVAN_HOME inside it, so nothing of the developer's home is read or written.
 * Deleted when the test file ends (in a shard too), after its child processes are killed
 * (children.ts does both, in that order).
 */
export function tempWorkspace(prefix = 'sylvan-test-'): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  workspaces.push(folder);
  return folder;
}

/** For children.ts's end of file only: deletes every workspace made so far. */
export function removeTempWorkspaces(): void {
  for (const folder of workspaces.splice(0)) rmSync(folder, { recursive: true, force: true });
}
