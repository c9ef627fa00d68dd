import path from 'node:path';
import type { Ignore } from 'ignore';
import { readBoundedFile } from '../../shared/bounded-file.ts';

/** Rules past this are not read (a `.gitignore` of a megabyte is already absurd); the read ends at the last whole line. */
const MAX_GITIGNORE_BYTES = 1_000_000;

/** The `.gitignore` rules of one folder, matched against paths relative to that folder. */
interface FolderRules {
  folder: string;
  matcher: Ignore;
}

/** The rules in force in one folder: its own and every folder's above it, nearest last. */
export type ActiveRules = readonly FolderRules[];

/** The `.gitignore` files of a workspace, read as a walk enters each folder. */
export interface GitignoreRules {
  /**
   * On the way down to `folder` (workspace-relative): the rules of the folders above it, which apply
   * in it, each `.gitignore` read once; and whether git ignores `folder` or a folder on the way.
   */
  along(folder: string): { above: ActiveRules; ignored: boolean };
  /** The rules in force in `folder` (workspace-relative, "." for the root): `active` plus its own `.gitignore`. */
  enter(folder: string, active: ActiveRules): ActiveRules;
  /** Whether git would ignore the workspace-relative `relative` under `active`; a deeper `!negation` re-includes. */
  ignored(relative: string, isFolder: boolean, active: ActiveRules): boolean;
}

/**
 * A folder's `.gitignore` text: only a regular file inside the workspace (a FIFO would block the
 * walk for ever, `/dev/zero` would fill memory), at most `MAX_GITIGNORE_BYTES` of it.
 */
function readGitignore(root: string, folder: string): string | undefined {
  const read = readBoundedFile(path.join(root, folder, '.gitignore'), { maxBytes: MAX_GITIGNORE_BYTES, within: root, withinLabel: 'the workspace' });
  if (read.status !== 'read') return undefined;
  const bytes = read.cut ? read.bytes.subarray(0, read.bytes.lastIndexOf(0x0a) + 1) : read.bytes;
  return bytes.toString('utf8');
}

/** The `.gitignore` rules of the workspace `root`. Loads the `ignore` library on first use. */
export async function gitignoreRules(root: string): Promise<GitignoreRules> {
  const { default: createIgnore } = await import('ignore');
  const enter = (folder: string, active: ActiveRules): ActiveRules => {
    const text = readGitignore(root, folder);
    return text === undefined ? active : [...active, { folder, matcher: createIgnore().add(text) }];
  };
  const rules: GitignoreRules = {
    along(folder) {
      const parts = folder === '.' ? [] : folder.split('/');
      let above: ActiveRules = [];
      let ignored = false;
      for (let depth = 0; depth < parts.length; depth++) {
        above = enter(depth === 0 ? '.' : parts.slice(0, depth).join('/'), above);
        ignored ||= rules.ignored(parts.slice(0, depth + 1).join('/'), true, above);
      }
      return { above, ignored };
    },
    enter,
    ignored(relative, isFolder, active) {
      let ignored = false;
      for (const { folder, matcher } of active) {
        const inside = folder === '.' ? relative : relative.slice(folder.length + 1);
        let verdict: { ignored: boolean; unignored: boolean };
        try {
          verdict = matcher.test(isFolder ? `${inside}/` : inside);
        } catch {
          continue; // a name the parser rejects (it refuses some odd paths) is judged by the other rules
        }
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      return ignored;
    },
  };
  return rules;
}
