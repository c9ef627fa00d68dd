import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { FileChange, FileState } from './checkpoint-types.ts';
import { observe, putBack, sameState, type Observed } from './file-state.ts';

/** What a restore did to one path. */
export interface RestoreLine {
  path: string;
  outcome: 'restored' | 'recreated' | 'removed' | 'unchanged' | 'kept' | 'failed';
  /** Why it failed. */
  reason?: string;
}

/** What a conflicted path would be put back to. */
export type Restoring = { kind: 'absent' } | { kind: 'file'; mode: number; bytes: Buffer } | { kind: 'link'; target: string };

/** A path someone changed since the checkpoint: overwrite it (true) or keep it (false)? */
export type ConflictResolver = (conflict: { path: string; current: Observed; restoring: Restoring }) => Promise<boolean>;

export interface RestoreContext {
  /** The real workspace root. */
  root: string;
  read(state: Extract<FileState, { kind: 'file' }>, relativePath: string): Promise<Buffer>;
}

/**
 * Undo puts each change's `before` back, newest change first; redo its `after`, oldest first. A
 * path that is no longer what the change left (someone edited it since) is overwritten only when
 * `resolve` agrees. Never throws: a path that cannot be restored is a `failed` line.
 */
export async function restoreChanges(
  changes: readonly FileChange[],
  direction: 'undo' | 'redo',
  context: RestoreContext,
  resolve: ConflictResolver,
): Promise<RestoreLine[]> {
  const ordered = direction === 'undo' ? [...changes].reverse() : [...changes];
  const lines: RestoreLine[] = [];
  for (const change of ordered) {
    const [expected, target] = direction === 'undo' ? [change.after, change.before] : [change.before, change.after];
    try {
      const absolutePath = insideWorkspace(context.root, change.path);
      const current = await observe(absolutePath, Number.MAX_SAFE_INTEGER);
      if (sameState(current, target)) {
        lines.push({ path: change.path, outcome: 'unchanged' });
        continue;
      }
      const restoring: Restoring = target.kind === 'file' ? { kind: 'file', mode: target.mode, bytes: await context.read(target, change.path) } : target;
      if (!sameState(current, expected) && !(await resolve({ path: change.path, current, restoring }))) {
        lines.push({ path: change.path, outcome: 'kept' });
        continue;
      }
      await putBack(absolutePath, restoring);
      lines.push({ path: change.path, outcome: target.kind === 'absent' ? 'removed' : current.kind === 'absent' ? 'recreated' : 'restored' });
    } catch (error) {
      lines.push({ path: change.path, outcome: 'failed', reason: (error as Error).message });
    }
  }
  return lines;
}

/** The absolute path of a recorded path, refused when it (or a folder on its way, through a link) leads out of the workspace. */
function insideWorkspace(root: string, relativePath: string): string {
  const absolutePath = path.resolve(root, relativePath);
  const outside = (candidate: string) => {
    const relative = path.relative(root, candidate);
    return relative === '' ? false : relative.startsWith('..') || path.isAbsolute(relative);
  };
  if (outside(absolutePath) || absolutePath === root) throw new Error('it is outside the workspace');
  let folder = path.dirname(absolutePath);
  while (true) {
    try {
      if (outside(realpathSync(folder))) throw new Error('a folder on its path leads outside the workspace');
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || folder === root) throw error;
      folder = path.dirname(folder);
    }
  }
  return absolutePath;
}
