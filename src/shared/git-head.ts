import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readWholeSmallFile } from './bounded-file.ts';

/** Folders walked up from the working directory looking for `.git`: a workspace is rarely deeper in its repository. */
const MAX_LEVELS = 32;
/** A HEAD file is one short line; anything longer is not one. */
const MAX_HEAD_BYTES = 4096;

/** Where HEAD points: a branch, or (detached) the commit's first 7 hex digits. */
export type GitHead = { branch: string } | { detached: string };

/**
 * Where HEAD of the repository `cwd` is in points, read from `.git/HEAD` (no git process: it runs
 * as a session starts and before every prompt), or undefined outside a repository or when HEAD
 * cannot be read. A worktree's or submodule's `.git` file (`gitdir: …`) is followed once. Never
 * throws.
 */
export function readGitHead(cwd: string): GitHead | undefined {
  let folder = resolve(cwd);
  for (let level = 0; level < MAX_LEVELS; level++) {
    const dotGit = join(folder, '.git');
    const gitDirectory = gitDirectoryOf(dotGit);
    if (gitDirectory !== undefined) return headOf(readSmall(join(gitDirectory, 'HEAD')));
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
  return undefined;
}

/** The branch `cwd` is on (`main`), the short commit when HEAD is detached, or undefined: what a session records. */
export function readGitBranch(cwd: string): string | undefined {
  const head = readGitHead(cwd);
  return head && ('branch' in head ? head.branch : head.detached);
}

/** The repository folder `.git` names: itself when it is a folder, its `gitdir:` when it is a file. */
function gitDirectoryOf(dotGit: string): string | undefined {
  try {
    const info = statSync(dotGit);
    if (info.isDirectory()) return dotGit;
    if (!info.isFile()) return undefined;
  } catch {
    return undefined;
  }
  const target = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit) ?? '')?.[1];
  if (target === undefined) return undefined;
  return isAbsolute(target) ? target : resolve(dirname(dotGit), target);
}

function headOf(head: string | undefined): GitHead | undefined {
  if (head === undefined) return undefined;
  const line = head.split('\n')[0]?.trim() ?? '';
  const ref = /^ref:\s*(\S+)$/.exec(line)?.[1];
  if (ref !== undefined) {
    const branch = ref.replace(/^refs\/heads\//, '');
    return branch === '' ? undefined : { branch };
  }
  return /^[0-9a-f]{7,64}$/i.test(line) ? { detached: line.slice(0, 7) } : undefined;
}

/**
 * A small file of the repository, through the bounded reader like every file Sylvan opens itself: a
 * command may have made HEAD a FIFO (a plain read would never return) or a link to /dev/zero (it
 * would never end), so only a regular file in its own folder, reached without a link, is read.
 */
function readSmall(path: string): string | undefined {
  const read = readWholeSmallFile(path, { maxBytes: MAX_HEAD_BYTES, within: dirname(path), withinLabel: 'its folder' });
  return read.status === 'read' ? read.bytes.toString('utf8') : undefined;
}
