import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { readWholeSmallFile } from '../shared/bounded-file.ts';

/** A `.git` file (`gitdir: …`) or `commondir` is one short line. */
const MAX_POINTER_BYTES = 4096;

const isInside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/**
 * The git paths a sandboxed command must not write, resolved: the workspace's `.git` (a folder, or
 * a worktree's or submodule's `gitdir:` file, which would otherwise be pointed at a planted
 * repository), and the git directory and common directory it names when they lie inside the
 * workspace. Hooks, `config` (`core.fsmonitor`) and `HEAD` there run or are read outside the
 * sandbox on the user's next git command. Those outside the workspace are read-only already.
 * Never throws; missing paths are left out.
 */
export function gitPathsToProtect(workspaceRoot: string): string[] {
  const dotGit = join(workspaceRoot, '.git');
  let stats;
  try {
    stats = lstatSync(dotGit);
  } catch {
    return [];
  }
  const found = new Set<string>([resolved(dotGit)]);
  if (stats.isFile()) {
    const gitDirectory = pointer(dotGit, /^gitdir:\s*(.+?)\s*$/m, workspaceRoot);
    if (gitDirectory !== undefined) {
      found.add(gitDirectory);
      const common = pointer(join(gitDirectory, 'commondir'), /^(.+?)\s*$/m, gitDirectory);
      if (common !== undefined) found.add(common);
    }
  }
  return [...found].filter((path) => isInside(path, workspaceRoot));
}

/** The path a small pointer file names (relative to its own folder), resolved; undefined when unreadable. */
function pointer(file: string, pattern: RegExp, within: string): string | undefined {
  const read = readWholeSmallFile(file, { maxBytes: MAX_POINTER_BYTES, within: dirname(file), withinLabel: within });
  if (read.status !== 'read') return undefined;
  const target = pattern.exec(read.bytes.toString('utf8'))?.[1];
  if (target === undefined || target === '') return undefined;
  const path = isAbsolute(target) ? target : resolve(dirname(file), target);
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function resolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
