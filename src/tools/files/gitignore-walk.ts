import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Ignore } from 'ignore';
import { readBoundedFile } from '../../shared/bounded-file.ts';
import { holdsSecrets, isSecretPath } from '../../shared/workspace-path.ts';

const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);
const MAX_DEPTH = 32;
/** Rules past this are not read (a `.gitignore` of a megabyte is already absurd); the read ends at the last whole line. */
const MAX_GITIGNORE_BYTES = 1_000_000;

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

export interface WalkOptions {
  /** The real workspace root; `.gitignore` files from here down apply. */
  root: string;
  /** Where the walk starts, relative to the root ("." for the root); it is walked even if ignored. */
  start: string;
  secretPatterns: readonly string[];
  /** Stop collecting after this many files. */
  maxFiles: number;
  abortSignal?: AbortSignal;
}

export interface WalkResult {
  /** Workspace-relative, `/`-separated, sorted by folder then name. */
  files: string[];
  secretsSkipped: number;
  /** Folders whose every file is secret, not opened. */
  secretFoldersSkipped: number;
  /** True when `maxFiles` was reached before the walk ended. */
  truncated: boolean;
}

/** The `.gitignore` rules of one folder, matched against paths relative to that folder. */
interface Rules {
  folder: string;
  matcher: Ignore;
}

/**
 * Lists the files under `start` that git would not ignore: every `.gitignore` from the root down
 * to each folder applies (a deeper file's `!negation` can re-include what a higher one ignored),
 * `.git` and `node_modules` are always skipped, symbolic links are not followed, and secret files
 * are left out (counted, never read), as are folders whose every file is secret (`.ssh/`, `$SYLVAN_HOME`). Loads the `ignore` library on first use.
 */
export async function walkUnignored(options: WalkOptions): Promise<WalkResult> {
  const { default: createIgnore } = await import('ignore');
  const result: WalkResult = { files: [], secretsSkipped: 0, secretFoldersSkipped: 0, truncated: false };
  const load = (folder: string): Rules | undefined => {
    const text = readGitignore(options.root, folder);
    return text === undefined ? undefined : { folder, matcher: createIgnore().add(text) };
  };

  // Rules of the folders above the start apply to what lies under it.
  const inherited: Rules[] = [];
  const startParts = options.start === '.' ? [] : options.start.split('/');
  for (let depth = 0; depth < startParts.length; depth++) {
    const rules = load(depth === 0 ? '.' : startParts.slice(0, depth).join('/'));
    if (rules) inherited.push(rules);
  }

  const isIgnored = (relative: string, isFolder: boolean, rules: readonly Rules[]): boolean => {
    let ignored = false;
    for (const { folder, matcher } of rules) {
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
  };

  const visit = async (folder: string, rules: readonly Rules[], depth: number): Promise<void> => {
    if (result.truncated || depth > MAX_DEPTH) return;
    options.abortSignal?.throwIfAborted();
    const own = load(folder);
    const active = own ? [...rules, own] : rules;
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(options.root, folder), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    const subfolders: string[] = [];
    for (const entry of entries) {
      const relative = folder === '.' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name) || isIgnored(relative, true, active)) continue;
        if (holdsSecrets(relative, options.secretPatterns)) result.secretFoldersSkipped++;
        else subfolders.push(relative);
        continue;
      }
      if (!entry.isFile() || isIgnored(relative, false, active)) continue;
      if (isSecretPath(relative, options.secretPatterns)) {
        result.secretsSkipped++;
        continue;
      }
      if (result.files.length >= options.maxFiles) {
        result.truncated = true;
        return;
      }
      result.files.push(relative);
    }
    for (const subfolder of subfolders) await visit(subfolder, active, depth + 1);
  };

  await visit(options.start, inherited, 0);
  return result;
}
