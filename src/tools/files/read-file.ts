import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tool } from 'ai';
import { z } from 'zod';
import path from 'node:path';
import { isInside, openWorkspaceFile, resolveWorkspaceTarget, type WorkspaceTarget, type WorkspaceToolOptions } from '../../shared/workspace-path.ts';
import { countOf, digits } from '../../shared/text/count-text.ts';

/** Hard cap on the text handed to the model, whatever the file. */
export const MAX_READ_RESULT_CHARS = 8_000;
const DEFAULT_LINE_LIMIT = 400;
const MAX_LINE_CHARS = 1_000;
/** Beyond this, only a prefix is read, so a huge log never lands in memory whole. */
const MAX_READ_BYTES = 10_000_000;
const BINARY_SNIFF_BYTES = 8 * 1024;
/** Room kept for the closing notes when filling the window. */
const NOTE_RESERVE_CHARS = 300;

/**
 * Creates the `read_file` tool: returns a summary line ("package.json (42 lines, 1.2 kB)") then a
 * window of numbered lines (`cat -n` style), with a note telling how to read further. The result
 * never exceeds 8,000 characters; lines longer than 1,000 characters are cut with a marker.
 * Binary files are described, not dumped. Refuses paths outside the workspace and secret files.
 */
export function createReadFileTool(options: WorkspaceToolOptions & ReadOnlyFolders) {
  return tool({
    description:
      'Read a text file in the workspace. Returns a summary line, then the lines prefixed with their line numbers. ' +
      `Shows up to ${DEFAULT_LINE_LIMIT} lines at a time (the result is capped at 8,000 characters); ` +
      'when there is more, a note at the end gives the offset to pass next. Use offset/limit to read a specific part. ' +
      'Paths are relative to the workspace root. Binary files are only described. Secret files such as .env cannot be read. ' +
      'Use list_files first if you do not know the exact path.',
    inputSchema: z.object({
      path: z.string().min(1).describe('File path relative to the workspace root, e.g. "src/index.ts".'),
      offset: z.number().int().min(1).optional().describe('1-based line number to start at (default 1).'),
      limit: z.number().int().min(1).optional().describe(`Maximum number of lines to return (default ${DEFAULT_LINE_LIMIT}).`),
    }),
    async execute({ path: userPath, offset = 1, limit = DEFAULT_LINE_LIMIT }, { abortSignal }) {
      const folder = readOnlyFolderOf(options, userPath);
      const resolved = await resolveWorkspaceTarget(folder ?? options.workspaceRoot, userPath, {
        secretPatterns: options.secretPatterns ?? [],
      });
      // Outside the workspace the relative path would be ambiguous: the model is shown the path it gave.
      const target = folder === undefined ? resolved : { ...resolved, relativePath: path.join(folder, resolved.relativePath) };
      if (options.editorFiles) {
        const text = await options.editorFiles.read(target.absolutePath);
        abortSignal?.throwIfAborted();
        const bytes = Buffer.from(text, 'utf8');
        return formatWindow(target.relativePath, bytes.length, bytes, offset, limit);
      }
      const stats = await statForReading(target, userPath);
      abortSignal?.throwIfAborted();
      const bytes = await readPrefix(target, userPath, Math.min(stats.size, MAX_READ_BYTES));
      abortSignal?.throwIfAborted();
      if (looksBinary(bytes)) {
        return `${target.relativePath} is a binary file (${digits(stats.size)} bytes); its contents cannot be shown as text.`;
      }
      return formatWindow(target.relativePath, stats.size, bytes, offset, limit);
    },
  });
}

export interface ReadOnlyFolders {
  /**
   * Folders outside the workspace `read_file` also reads (a skill's), by absolute path: each is a
   * root of its own, with the workspace's rules (no link out of it, no secret file, no hard link).
   */
  readOnlyFolders?: readonly string[];
}

/** The read-only folder an absolute path outside the workspace lies in; inside it, the workspace's own rules (and hidden paths) hold. */
function readOnlyFolderOf(options: WorkspaceToolOptions & ReadOnlyFolders, userPath: string): string | undefined {
  if (!path.isAbsolute(userPath) || isInside(path.resolve(options.workspaceRoot), path.resolve(userPath))) return undefined;
  return options.readOnlyFolders?.find((folder) => isInside(path.resolve(folder), path.resolve(userPath)));
}

async function statForReading(target: WorkspaceTarget, userPath: string): Promise<Stats> {
  let stats: Stats;
  try {
    stats = await stat(target.absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new Error(`file ${userPath} does not exist in the workspace; use list_files to see which files exist`);
    }
    throw readFailure(target.relativePath, error);
  }
  if (stats.isDirectory()) {
    throw new Error(`${target.relativePath} is a folder, not a file; use list_files to see what it contains`);
  }
  if (!stats.isFile()) {
    throw new Error(`${target.relativePath} is not a regular file (it is a device, socket or pipe) and cannot be read`);
  }
  return stats;
}

async function readPrefix(target: WorkspaceTarget, userPath: string, byteCount: number): Promise<Buffer> {
  const buffer = Buffer.alloc(byteCount);
  let filled = 0;
  const handle = await openWorkspaceFile(target, userPath);
  try {
    while (filled < byteCount) {
      const { bytesRead } = await handle.read(buffer, filled, byteCount - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return buffer.subarray(0, filled);
}

function readFailure(displayPath: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return new Error(`cannot read ${displayPath}: permission denied`);
  return new Error(`cannot read ${displayPath}: ${(error as Error).message}`);
}

/** A NUL byte never occurs in text; many replacement characters mean it is not UTF-8 text either. */
function looksBinary(bytes: Buffer): boolean {
  const sniff = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (sniff.includes(0)) return true;
  // stream: true keeps a multi-byte character cut at the sniff boundary from counting as invalid.
  const decoded = new TextDecoder('utf-8').decode(sniff, { stream: true });
  let replacements = 0;
  for (const character of decoded) if (character === '\uFFFD') replacements++;
  return replacements > 0 && replacements > decoded.length * 0.1;
}

function formatWindow(displayPath: string, size: number, bytes: Buffer, offset: number, limit: number): string {
  const isPartial = size > bytes.length;
  // A partial read ends mid-file; drop the incomplete last line rather than show half of it.
  const usable = isPartial ? bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1) : bytes;
  const lines = new TextDecoder('utf-8').decode(usable).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const total = lines.length;

  const header = isPartial
    ? `${displayPath} (${formatSize(size)}; more than ${digits(total)} lines, of which read_file can reach only the first ${formatSize(MAX_READ_BYTES)})`
    : `${displayPath} (${countOf(total, 'line')}, ${formatSize(size)})`;
  if (total === 0) return `${header}\n[the file is empty]`;
  if (offset > total) {
    throw new Error(
      isPartial
        ? `offset ${offset} lies beyond the first ${formatSize(MAX_READ_BYTES)} of ${displayPath} (lines 1-${total}), which is as far as read_file reads`
        : `offset ${offset} is past the end of ${displayPath}, which has ${countOf(total, 'line')}; use an offset between 1 and ${total}`,
    );
  }

  const end = Math.min(total, offset - 1 + limit);
  const width = String(end).length;
  const budget = MAX_READ_RESULT_CHARS - NOTE_RESERVE_CHARS;
  const output = [header];
  let used = header.length;
  let last = offset - 1;
  let cutLines = 0;
  for (let index = offset - 1; index < end; index++) {
    const line = (lines[index] ?? '').replace(/\r$/, '');
    const shown = line.length > MAX_LINE_CHARS ? cutLine(line) : line;
    if (shown !== line) cutLines++;
    const numbered = `${String(index + 1).padStart(width)}\t${shown}`;
    if (used + 1 + numbered.length > budget && last >= offset) break;
    output.push(numbered);
    used += 1 + numbered.length;
    last = index + 1;
  }

  const reachedBudget = last < end;
  if (last < total || isPartial) {
    const of = isPartial ? `more than ${total}` : `${total}`;
    const cap = reachedBudget ? ' (output is capped at 8,000 characters)' : '';
    output.push(
      last < total
        ? `[lines ${offset}-${last} of ${of}${cap}; call read_file with offset ${last + 1} to read more]`
        : `[lines ${offset}-${last}; the rest of this ${formatSize(size)} file is beyond what read_file can reach]`,
    );
  }
  if (cutLines > 0) {
    output.push(
      `[${countOf(cutLines, 'line')} longer than ${digits(MAX_LINE_CHARS)} characters ${cutLines === 1 ? 'was' : 'were'} cut; read_file cannot show the cut part]`,
    );
  }
  const result = output.join('\n');
  return result.length <= MAX_READ_RESULT_CHARS ? result : `${result.slice(0, MAX_READ_RESULT_CHARS - 1)}…`;
}

function cutLine(line: string): string {
  // Never split a surrogate pair: half an emoji is not valid text.
  const end = /[\uDC00-\uDFFF]/.test(line.charAt(MAX_LINE_CHARS)) ? MAX_LINE_CHARS - 1 : MAX_LINE_CHARS;
  return `${line.slice(0, end)} … [line cut: ${digits(line.length - end)} more characters]`;
}

/** Sizes as people read them: "345 bytes", "1.2 kB", "3.4 MB" (decimal units). */
function formatSize(bytes: number): string {
  if (bytes < 1000) return countOf(bytes, 'byte');
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
