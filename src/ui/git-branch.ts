import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Longer names are cut: the row under the prompt has the mode to show too. */
const MAX_NAME = 40;

/**
 * The git branch of the repository `cwd` is in, for the row under the prompt: read from `HEAD`
 * (a few small reads, no `git` process, since it runs before every prompt). The repository is the
 * nearest folder upwards with a `.git`, a folder or, in a worktree or submodule, a file saying
 * `gitdir: <path>`. A detached HEAD gives its short commit and "(detached)"; no repository, or one
 * that cannot be read, gives undefined. Never throws.
 */
export function gitBranch(cwd: string): string | undefined {
  try {
    const gitDir = findGitDir(resolve(cwd));
    if (gitDir === undefined) return undefined;
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (ref !== undefined) return cut(ref.replace(/^refs\/heads\//, ''));
    if (/^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(head)) return `${head.slice(0, 7)} (detached)`;
    return undefined;
  } catch {
    return undefined;
  }
}

function findGitDir(start: string): string | undefined {
  for (let folder = start; ; folder = dirname(folder)) {
    const dotGit = join(folder, '.git');
    const stats = statSync(dotGit, { throwIfNoEntry: false });
    if (stats?.isDirectory()) return dotGit;
    if (stats?.isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      return pointer === undefined ? undefined : resolve(folder, pointer);
    }
    if (dirname(folder) === folder) return undefined;
  }
}

const cut = (name: string): string => (name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name);
