import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { tool } from 'ai';
import { z } from 'zod';
import { matchesGlob } from '../../shared/glob.ts';
import { walkUnignored } from './gitignore-walk.ts';
import type { SearchJob, SearchMessage } from './search-worker.ts';
import { resolveWorkspaceTarget, type WorkspaceToolOptions } from '../../shared/workspace-path.ts';
import { countOf, digits } from '../../shared/text/count-text.ts';

export interface SearchFilesInput {
  pattern: string;
  path?: string;
  glob?: string;
  ignore_case?: boolean;
}

export interface SearchFilesOptions extends WorkspaceToolOptions {
  /** The longest a search may take before it is stopped (default 10 s): a pattern can backtrack for ever. */
  timeLimitMs?: number;
}

const MAX_SHOWN_MATCHES = 100;
const MAX_RESULT_CHARS = 8_000;
const MAX_LINE_CHARS = 200;
const MAX_FILES = 20_000;
const MAX_FILE_BYTES = 2_000_000;
const DEFAULT_TIME_LIMIT_MS = 10_000;
const WORKER_START_MS = 15_000;
/** The built worker, or, when running from the TypeScript source, a starter that registers tsx in the thread first. */
const WORKER_URL = new URL(
  path.extname(fileURLToPath(import.meta.url)) === '.ts' ? './search-worker-from-source.mjs' : './search-worker.js',
  import.meta.url,
);

interface Collected {
  matches: Extract<SearchMessage, { type: 'match' }>[];
  done?: Extract<SearchMessage, { type: 'done' }>;
  /** The file being searched when the time ran out. */
  stuckIn?: string;
}

/**
 * Creates the `search_files` tool: a regular-expression search (JavaScript syntax) over the text
 * files of the workspace or a folder or file in it, honouring `.gitignore`, skipping `.git`,
 * `node_modules`, binary files, files over 2 MB and secret files (never read). Results are
 * `file:line: text`, at most 100 matches and 8,000 characters, with a note when cut. Matching runs
 * in a worker thread that is stopped at the time limit, so no pattern can hang Sylvan.
 */
export function createSearchFilesTool(options: SearchFilesOptions) {
  return tool({
    description:
      'Search workspace file contents with a JavaScript regular expression, line by line; returns "file:line: text". ' +
      'Skips files in .gitignore, .git, node_modules, binaries and secret files. Narrow with path (a folder or file) and glob ' +
      `(e.g. "*.ts"). At most ${MAX_SHOWN_MATCHES} matches; escape ( [ . * to match them literally.`,
    inputSchema: z.object({
      pattern: z.string().min(1).describe('Regular expression, e.g. "function\\\\s+main" or "TODO".'),
      path: z.string().optional().describe('Folder or file to search, relative to the workspace root (default: everything).'),
      glob: z.string().optional().describe('Only files whose path matches this glob, e.g. "*.ts" or "src/**/*.test.ts".'),
      ignore_case: z.boolean().optional().describe('Match regardless of case (default false).'),
    }),
    execute: (input, { abortSignal }) => searchFiles(options, input, abortSignal),
  });
}

async function searchFiles(options: SearchFilesOptions, input: SearchFilesInput, abortSignal: AbortSignal | undefined): Promise<string> {
  const flags = input.ignore_case ? 'i' : '';
  try {
    new RegExp(input.pattern, flags);
  } catch (error) {
    throw new Error(
      `pattern ${JSON.stringify(input.pattern)} is not a valid regular expression (${(error as Error).message}); fix it, or escape characters such as ( [ { . * + ? with a backslash to match them literally`,
    );
  }
  const userPath = input.path?.trim() || '.';
  const target = await resolveWorkspaceTarget(options.workspaceRoot, userPath, { secretPatterns: options.secretPatterns ?? [] });
  const stats = await stat(target.absolutePath).catch(() => undefined);
  if (!stats) throw new Error(`${userPath} does not exist in the workspace; call list_files to see what exists`);

  let files: string[];
  let secretsSkipped = 0;
  let secretFoldersSkipped = 0;
  let truncated = false;
  if (stats.isFile()) {
    files = [target.relativePath];
  } else {
    const walk = await walkUnignored({
      root: target.root,
      start: target.relativePath,
      secretPatterns: options.secretPatterns ?? [],
      maxFiles: MAX_FILES,
      abortSignal,
    });
    ({ files, secretsSkipped, secretFoldersSkipped, truncated } = walk);
  }
  const glob = input.glob?.trim().replace(/^(\.\/)+/, '');
  if (glob) files = files.filter((file) => matchesGlob(glob.includes('/') ? file : path.posix.basename(file), glob));

  const job: SearchJob = {
    files: files.map((file) => ({ absolutePath: path.join(target.root, file), displayPath: file })),
    pattern: input.pattern,
    flags,
    maxMatches: MAX_SHOWN_MATCHES + 1,
    maxFileBytes: MAX_FILE_BYTES,
    maxLineChars: MAX_LINE_CHARS,
  };
  const timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const collected = await runWorker(job, timeLimitMs, abortSignal);
  return formatResult(input, target.relativePath, files.length, collected, { secretsSkipped, secretFoldersSkipped, truncated, timeLimitMs });
}

/** Runs the search in a worker; at the time limit or on abort the worker is terminated. */
function runWorker(job: SearchJob, timeLimitMs: number, abortSignal: AbortSignal | undefined): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const collected: Collected = { matches: [] };
    let current = -1;
    const worker = new Worker(WORKER_URL, { workerData: job });
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      abortSignal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const stopForTime = () => {
      collected.stuckIn = job.files[current]?.displayPath;
      finish(() => resolve(collected));
    };
    // The bound is on matching: starting a thread can take a while on a busy machine and is not the pattern's fault.
    let timer = setTimeout(() => finish(() => reject(new Error('the search could not start (no worker thread); try again'))), WORKER_START_MS);
    let matching = false;
    const onAbort = () => finish(() => reject(abortSignal?.reason instanceof Error ? abortSignal.reason : new Error('The search was interrupted.')));
    if (abortSignal?.aborted) return onAbort();
    abortSignal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: SearchMessage) => {
      if (!matching) {
        matching = true;
        clearTimeout(timer);
        timer = setTimeout(stopForTime, timeLimitMs);
      }
      if (message.type === 'file') current = message.index;
      else if (message.type === 'match') collected.matches.push(message);
      else {
        collected.done = message;
        finish(() => resolve(collected));
      }
    });
    worker.on('error', (error) => finish(() => reject(new Error(`the search failed: ${error.message}`))));
  });
}

function formatResult(
  input: SearchFilesInput,
  where: string,
  fileCount: number,
  collected: Collected,
  walk: { secretsSkipped: number; secretFoldersSkipped: number; truncated: boolean; timeLimitMs: number },
): string {
  const place = where === '.' ? 'the workspace' : where;
  const shown = collected.matches.slice(0, MAX_SHOWN_MATCHES);
  const lines: string[] = [];
  let used = 0;
  let cutForLength = false;
  for (const match of shown) {
    const line = `${match.file}:${match.line}: ${match.text}`;
    if (used + line.length + 1 > MAX_RESULT_CHARS - 400) {
      cutForLength = true;
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  const notes: string[] = [];
  const more = collected.matches.length > shown.length || cutForLength;
  if (more) {
    notes.push(`[showing the first ${matchCount(lines.length)}; there are more. Narrow the pattern, path or glob to see the rest]`);
  }
  if (collected.stuckIn !== undefined) {
    notes.push(
      `[the search was stopped after ${(walk.timeLimitMs / 1000).toFixed(1)} s while matching ${collected.stuckIn}: the pattern is too slow (nested repetition such as (a+)+ backtracks catastrophically). Simplify the pattern or narrow path/glob; results above are partial]`,
    );
  } else if (collected.done === undefined) {
    notes.push(`[the search was stopped after ${(walk.timeLimitMs / 1000).toFixed(1)} s; results above are partial. Narrow path or glob]`);
  }
  if (walk.truncated) notes.push(`[only the first ${digits(MAX_FILES)} files were searched; narrow path or glob]`);
  const done = collected.done;
  if (done && done.tooLarge > 0) notes.push(`[${countOf(done.tooLarge, 'file')} over 2 MB not searched]`);
  if (walk.secretsSkipped > 0) notes.push(`[${countOf(walk.secretsSkipped, 'secret file')} (such as .env) not searched]`);
  if (walk.secretFoldersSkipped > 0) notes.push(`[${countOf(walk.secretFoldersSkipped, 'folder')} of credentials or Sylvan's own settings (such as .ssh/) not searched]`);

  const header =
    lines.length === 0 && done === undefined
      ? `No matches for /${input.pattern}/${input.ignore_case ? 'i' : ''} in ${place} before the search was stopped.`
      : lines.length === 0
      ? `No matches for /${input.pattern}/${input.ignore_case ? 'i' : ''} in ${place} (${countOf(done?.searched ?? fileCount, 'file')} searched${input.glob ? `, glob ${input.glob}` : ''}).`
      : `${matchCount(lines.length)}${more ? '+' : ''} for /${input.pattern}/${input.ignore_case ? 'i' : ''} in ${place}:`;
  return [header, ...lines, ...notes].join('\n');
}

function matchCount(count: number): string {
  return `${digits(count)} ${count === 1 ? 'match' : 'matches'}`;
}
