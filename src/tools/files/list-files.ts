import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';
import { globComplexityProblem, matchesGlob } from '../../shared/glob.ts';
import { holdsSecrets, resolveWorkspaceTarget, toRelative, type WorkspaceToolOptions } from '../../shared/workspace-path.ts';
import { gitignoreRules, type ActiveRules, type GitignoreRules } from './gitignore-rules.ts';
import { digits } from '../../shared/text/count-text.ts';

const MAX_LISTED_ENTRIES = 200;
const MAX_RESULT_CHARS = 8_000;
/** The walk gives up after this many entries or levels, so a huge tree cannot hang the turn. */
const MAX_VISITED_ENTRIES = 20_000;
const MAX_DEPTH = 16;
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

interface Walk {
  readonly pattern: string | undefined;
  readonly secretPatterns: readonly string[];
  readonly displayPrefix: string;
  readonly abortSignal: AbortSignal | undefined;
  shown: string[];
  shownChars: number;
  matched: number;
  visited: number;
  stopped: boolean;
  depthLimited: boolean;
  skippedFolders: boolean;
  /** The workspace's `.gitignore` rules; absent when the folder listed is itself ignored (asked for by name, it is listed whole). */
  readonly gitignore: GitignoreRules | undefined;
  /** How many entries git ignores were left out. */
  ignored: number;
  /** When the walk last let the event loop run, so a timeout or Ctrl-C can stop it. */
  lastYieldAt: number;
}

/** Synchronous matching runs at most this long before the walk yields to the event loop. */
const MAX_BUSY_MS = 20;

/**
 * Creates the `list_files` tool: lists a workspace folder recursively (default the root), sorted,
 * folders with a trailing "/", paths relative to the workspace root, optionally filtered by a glob.
 * Skips `.git` and `node_modules`; dotfiles stay visible; symbolic links are listed, never followed;
 * folders whose every file is secret (`.ssh/`, `$SYLVAN_HOME`) are listed, never opened, and refused as `path`.
 * Shows at most 200 entries (and at most 8,000 characters) with a note saying how many were left out.
 */
export function createListFilesTool(options: WorkspaceToolOptions) {
  return tool({
    description:
      'List files and folders in the workspace, recursively. Folders end with "/"; paths are relative to the workspace root, ' +
      'so they can be passed to read_file as they are. Give `path` to list one folder (default: the whole workspace) and ' +
      '`pattern` to keep only matching entries: a glob such as "**/*.ts" is matched against the path inside the listed folder, ' +
      'a pattern without "/" such as "*.md" is matched against names at any depth. ' +
      `.git, node_modules and what .gitignore names are skipped (an ignored folder given as \`path\` is listed whole). At most ${MAX_LISTED_ENTRIES} entries are shown; narrow the path or pattern when the list is cut.`,
    inputSchema: z.object({
      path: z.string().optional().describe('Folder to list, relative to the workspace root (default ".").'),
      pattern: z.string().optional().describe('Optional glob filter, e.g. "**/*.ts" or "*.md".'),
    }),
    async execute({ path: userPath = '.', pattern }, { abortSignal }) {
      const folder = userPath.trim() === '' ? '.' : userPath;
      const target = await resolveWorkspaceTarget(options.workspaceRoot, folder, { refuseSecrets: false });
      await assertFolder(target.absolutePath, target.relativePath, folder);
      const secretPatterns = options.secretPatterns ?? [];
      if (holdsSecrets(target.relativePath, secretPatterns) || holdsSecrets(toRelative(target.root, path.resolve(target.root, folder)), secretPatterns)) {
        throw new Error(`listing ${folder} is refused: it holds credentials or Sylvan's own settings, which are kept from the model and from commands`);
      }
      const filter = pattern?.trim().replace(/^(\.\/)+/, '') || undefined;
      const problem = filter === undefined ? undefined : globComplexityProblem(filter);
      if (problem !== undefined) throw new Error(`pattern refused: ${problem}`);
      const gitignore = await gitignoreUnlessIgnored(target.root, target.relativePath);
      const walk: Walk = {
        pattern: filter,
        secretPatterns,
        displayPrefix: target.relativePath === '.' ? '' : `${target.relativePath}/`,
        abortSignal,
        shown: [],
        shownChars: 0,
        matched: 0,
        visited: 0,
        stopped: false,
        depthLimited: false,
        skippedFolders: false,
        gitignore: gitignore?.rules,
        ignored: 0,
        lastYieldAt: performance.now(),
      };
      await walkFolder(target.absolutePath, '', 0, walk, gitignore?.active ?? []);
      return formatListing(target.relativePath, walk);
    },
  });
}

async function assertFolder(absolutePath: string, relativePath: string, userPath: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await stat(absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new Error(`folder ${userPath} does not exist in the workspace; call list_files without a path to see the top level`);
    }
    throw new Error(`cannot list ${relativePath}: ${(error as Error).message}`);
  }
  if (!stats.isDirectory()) {
    throw new Error(`${relativePath} is a file, not a folder; use read_file to read it`);
  }
}

/** Depth-first in name order, so entries come out sorted with each folder's contents right after it. */
async function walkFolder(absolutePath: string, relativePath: string, depth: number, walk: Walk, rules: ActiveRules): Promise<void> {
  walk.abortSignal?.throwIfAborted();
  let entries;
  try {
    entries = await readdir(absolutePath, { withFileTypes: true });
  } catch {
    // An unreadable subfolder should not sink the whole listing.
    return;
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    if (performance.now() - walk.lastYieldAt > MAX_BUSY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      walk.lastYieldAt = performance.now();
      walk.abortSignal?.throwIfAborted();
    }
    if (walk.visited >= MAX_VISITED_ENTRIES) {
      walk.stopped = true;
      return;
    }
    walk.visited++;
    const isFolder = entry.isDirectory();
    if (isFolder && SKIPPED_FOLDERS.has(entry.name)) {
      walk.skippedFolders = true;
      continue;
    }
    const entryPath = relativePath === '' ? entry.name : `${relativePath}/${entry.name}`;
    if (walk.gitignore?.ignored(`${walk.displayPrefix}${entryPath}`, isFolder, rules)) {
      walk.ignored++;
      continue;
    }
    if (walk.pattern === undefined || matchesPattern(entryPath, entry.name, walk.pattern)) {
      record(`${walk.displayPrefix}${entryPath}${isFolder ? '/' : ''}`, walk);
    }
    if (!isFolder) continue;
    // Listed, never opened: a credential folder's names are none of the model's business either.
    if (holdsSecrets(`${walk.displayPrefix}${entryPath}`, walk.secretPatterns)) continue;
    if (depth + 1 >= MAX_DEPTH) {
      walk.depthLimited = true;
      continue;
    }
    const below = walk.gitignore ? walk.gitignore.enter(`${walk.displayPrefix}${entryPath}`, rules) : rules;
    await walkFolder(path.join(absolutePath, entry.name), entryPath, depth + 1, walk, below);
  }
}

/**
 * The rules for a listing of `folder` and those in force in it (each `.gitignore` on the way read
 * once), or none when git ignores the folder itself: listed by name, it is shown whole.
 */
async function gitignoreUnlessIgnored(root: string, folder: string): Promise<{ rules: GitignoreRules; active: ActiveRules } | undefined> {
  const rules = await gitignoreRules(root);
  const way = rules.along(folder);
  return way.ignored ? undefined : { rules, active: rules.enter(folder, way.above) };
}

function matchesPattern(entryPath: string, name: string, pattern: string): boolean {
  return pattern.includes('/') ? matchesGlob(entryPath, pattern) : matchesGlob(name, pattern);
}

function record(display: string, walk: Walk): void {
  walk.matched++;
  // Once one entry is left out, the rest are too, so the list stays a sorted prefix.
  if (walk.shown.length < walk.matched - 1) return;
  if (walk.shown.length >= MAX_LISTED_ENTRIES) return;
  if (walk.shownChars + display.length + 1 > MAX_RESULT_CHARS - 400) return;
  walk.shown.push(display);
  walk.shownChars += display.length + 1;
}

function formatListing(relativePath: string, walk: Walk): string {
  const where = relativePath === '.' ? 'the workspace root' : `${relativePath}/`;
  const matching = walk.pattern === undefined ? '' : ` matching "${walk.pattern}"`;
  const atLeast = walk.stopped ? 'at least ' : '';
  const lines: string[] = [];
  if (walk.matched === 0) {
    lines.push(walk.pattern === undefined && !walk.stopped ? `${where} is empty` : `No entries${matching} under ${where}`);
  } else {
    const noun = walk.matched === 1 && !walk.stopped ? 'entry' : 'entries';
    lines.push(`${atLeast}${digits(walk.matched)} ${noun}${matching} under ${where}`);
    lines.push(...walk.shown);
  }
  const hidden = walk.matched - walk.shown.length;
  if (hidden > 0) {
    lines.push(`… ${atLeast}${digits(hidden)} more entries not shown; narrow the path or pattern`);
  }
  if (walk.stopped) {
    lines.push(`[the listing stopped after ${digits(MAX_VISITED_ENTRIES)} entries; list a smaller folder]`);
  }
  if (walk.depthLimited) {
    lines.push(`[folders nested deeper than ${MAX_DEPTH} levels were not opened; list a deeper path to see them]`);
  }
  if (walk.skippedFolders) lines.push('[.git and node_modules folders are not listed]');
  if (walk.ignored > 0) lines.push(`[${digits(walk.ignored)} entr${walk.ignored === 1 ? 'y' : 'ies'} .gitignore names not listed; list such a folder by its path to see it]`);
  return lines.join('\n');
}
