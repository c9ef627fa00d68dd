import { realpathSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FileChange, FileState } from './checkpoint-types.ts';
import { observe, putBack, sameState, sha256, type Observed } from './file-state.ts';

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
 * `resolve` agrees. A link the changes themselves put where a folder was goes first (so the
 * folder's files come back into a real folder, not through the link), and one they put back over a
 * folder goes last. Each restored path is read back: `restored` means the exact bytes and mode
 * (or link, or absence) are there. Never throws: a path that cannot be restored is a `failed` line.
 */
export async function restoreChanges(
  changes: readonly FileChange[],
  direction: 'undo' | 'redo',
  context: RestoreContext,
  resolve: ConflictResolver,
): Promise<RestoreLine[]> {
  const ordered = linksAroundFolders(direction === 'undo' ? [...changes].reverse() : [...changes], direction);
  const lines: RestoreLine[] = [];
  for (const change of ordered) {
    const [expected, target] = sides(change, direction);
    try {
      const absolutePath = insideWorkspace(context.root, change.path);
      // A folder whose files the restore took away (a link goes back in its place) holds only empty folders now.
      if (target.kind === 'link') await removeIfOnlyEmptyFolders(absolutePath);
      const current = await observe(absolutePath, Number.MAX_SAFE_INTEGER);
      if (sameState(current, target)) {
        lines.push({ path: change.path, outcome: 'unchanged' });
        continue;
      }
      const restoring: Restoring = target.kind === 'file' ? { kind: 'file', mode: target.mode, bytes: await context.read(target, change.path) } : target;
      if (restoring.kind === 'file' && target.kind === 'file' && sha256(restoring.bytes) !== target.sha256) throw new Error('its kept copy is not the bytes that were recorded; nothing was written');
      if (!sameState(current, expected) && !(await resolve({ path: change.path, current, restoring }))) {
        lines.push({ path: change.path, outcome: 'kept' });
        continue;
      }
      await putBack(insideWorkspace(context.root, change.path), restoring);
      if (!sameState(await observe(absolutePath, Number.MAX_SAFE_INTEGER), target)) {
        throw new Error(`what is there now is not what was kept (${target.kind === 'file' ? 'its bytes or mode differ' : 'it differs'})`);
      }
      lines.push({ path: change.path, outcome: target.kind === 'absent' ? 'removed' : current.kind === 'absent' ? 'recreated' : 'restored' });
    } catch (error) {
      lines.push({ path: change.path, outcome: 'failed', reason: (error as Error).message });
    }
  }
  return lines;
}

/** Removes `folder` when it holds nothing but empty folders (a link is not followed); anything else is left as it is. */
async function removeIfOnlyEmptyFolders(folder: string): Promise<void> {
  const onlyEmptyFolders = async (at: string): Promise<boolean> => {
    const stats = await lstat(at).catch(() => undefined);
    if (!stats?.isDirectory()) return false;
    for (const entry of await readdir(at)) if (!(await onlyEmptyFolders(path.join(at, entry)))) return false;
    return true;
  };
  if (await onlyEmptyFolders(folder)) await rm(folder, { recursive: true });
}

/** What a change left (expected on disk) and what a restore in `direction` puts back. */
function sides(change: FileChange, direction: 'undo' | 'redo'): [FileState, FileState] {
  return direction === 'undo' ? [change.after, change.before] : [change.before, change.after];
}

/**
 * Reorders so that a path holding others (a folder a command swapped for a link, or back) is put
 * back at the right moment: first when the link it holds now goes away (its files then land in a
 * real folder), last when a link is put back in place of the folder.
 */
function linksAroundFolders(changes: FileChange[], direction: 'undo' | 'redo'): FileChange[] {
  const holdsOthers = (change: FileChange) => changes.some((other) => other.path.startsWith(`${change.path}/`));
  const first = changes.filter((change) => holdsOthers(change) && sides(change, direction)[1].kind !== 'link');
  const last = changes.filter((change) => holdsOthers(change) && sides(change, direction)[1].kind === 'link');
  return [...first, ...changes.filter((change) => !holdsOthers(change)), ...last];
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
