import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { holdsSecrets, isSecretPath } from '../../shared/workspace-path.ts';
import { gitignoreRules, type ActiveRules } from './gitignore-rules.ts';

const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);
const MAX_DEPTH = 32;

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

/**
 * Lists the files under `start` that git would not ignore: every `.gitignore` from the root down
 * to each folder applies (a deeper file's `!negation` can re-include what a higher one ignored),
 * `.git` and `node_modules` are always skipped, symbolic links are not followed, and secret files
 * are left out (counted, never read), as are folders whose every file is secret (`.ssh/`, `$SYLVAN_HOME`).
 */
export async function walkUnignored(options: WalkOptions): Promise<WalkResult> {
  const result: WalkResult = { files: [], secretsSkipped: 0, secretFoldersSkipped: 0, truncated: false };
  const rules = await gitignoreRules(options.root);

  const visit = async (folder: string, above: ActiveRules, depth: number): Promise<void> => {
    if (result.truncated || depth > MAX_DEPTH) return;
    options.abortSignal?.throwIfAborted();
    const active = rules.enter(folder, above);
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
        if (SKIPPED_FOLDERS.has(entry.name) || rules.ignored(relative, true, active)) continue;
        if (holdsSecrets(relative, options.secretPatterns)) result.secretFoldersSkipped++;
        else subfolders.push(relative);
        continue;
      }
      if (!entry.isFile() || rules.ignored(relative, false, active)) continue;
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

  await visit(options.start, rules.along(options.start).above, 0);
  return result;
}
