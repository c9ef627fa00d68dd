import { readGitHead } from '../../shared/git-head.ts';

/** Longer names are cut: the row under the prompt has the mode to show too. */
const MAX_NAME = 40;

/**
 * The git branch of the repository `cwd` is in, for the row under the prompt (read from HEAD, no
 * `git` process, since it runs before every prompt): the branch's name, or the short commit and
 * "(detached)"; undefined outside a repository. Never throws.
 */
export function gitBranch(cwd: string): string | undefined {
  const head = readGitHead(cwd);
  if (head === undefined) return undefined;
  if ('detached' in head) return `${head.detached} (detached)`;
  return head.branch.length > MAX_NAME ? `${head.branch.slice(0, MAX_NAME - 1)}…` : head.branch;
}
