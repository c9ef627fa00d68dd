import type { Stats } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import { resolveWorkspaceTarget, type WorkspaceToolOptions } from '../../shared/workspace-path.ts';
import { countOf } from '../../shared/text/count-text.ts';
import { unifiedDiff } from './unified-diff.ts';
import { sanitize } from '../../shared/text/sanitize.ts';

export interface WriteFileInput {
  path: string;
  content: string;
}

const PREVIEW_LINES = 10;
const PREVIEW_LINE_CHARS = 120;
/** The most lines "view it whole" shows at an approval. */
const WHOLE_PREVIEW_LINES = 2_000;
/** Counting the lines of a bigger existing file is not worth reading it for an approval prompt. */
const MAX_COUNTED_BYTES = 10_000_000;
/** Up to this size an overwritten file is shown as a diff against what it holds now. */
const MAX_DIFFED_BYTES = 1_000_000;

/**
 * Creates the `write_file` tool: creates or overwrites a UTF-8 text file in the workspace, creating
 * missing parent folders, and returns "Wrote x (12 lines, 345 bytes)" or "Overwrote …". Refuses
 * paths outside the workspace (including through symbolic links), folders and secret files.
 * It does not ask for approval itself: the agent loop does, using `describeWrite`.
 */
export function createWriteFileTool(options: WorkspaceToolOptions) {
  return tool({
    description:
      'Create or overwrite a text file in the workspace with the given content (the whole file). Missing parent folders are created. ' +
      'The user is asked to approve each write. Paths are relative to the workspace root. Overwriting replaces everything, ' +
      'so read the file first when changing an existing one. Secret files such as .env cannot be written.',
    inputSchema: z.object({
      path: z.string().min(1).describe('File path relative to the workspace root, e.g. "notes/todo.md".'),
      content: z.string().describe('The complete new content of the file.'),
    }),
    async execute({ path: userPath, content }, { abortSignal }) {
      const target = await resolveWorkspaceTarget(options.workspaceRoot, userPath, {
        forWrite: true,
        secretPatterns: options.secretPatterns ?? [],
      });
      const existing = await statIfPresent(target.absolutePath);
      if (existing?.isDirectory()) {
        throw new Error(`${target.relativePath} is a folder; give a file path such as ${target.relativePath}/notes.md`);
      }
      if (existing !== undefined && !existing.isFile()) {
        throw new Error(`${target.relativePath} is not a regular file (it is a device, socket or pipe) and cannot be written`);
      }
      abortSignal?.throwIfAborted();
      try {
        if (options.editorFiles) await options.editorFiles.write(target.absolutePath, content);
        else await writeToDisk(target.absolutePath, content, existing, abortSignal);
      } catch (error) {
        throw writeFailure(target.relativePath, error);
      }
      const bytes = Buffer.byteLength(content, 'utf8');
      const verb = existing === undefined ? 'Wrote' : 'Overwrote';
      return `${verb} ${target.relativePath} (${countOf(countLines(content), 'line')}, ${countOf(bytes, 'byte')})`;
    },
  });
}

async function writeToDisk(absolutePath: string, content: string, existing: Stats | undefined, abortSignal: AbortSignal | undefined): Promise<void> {
  await mkdir(path.dirname(absolutePath), { recursive: true });
  abortSignal?.throwIfAborted();
  // Atomic: a kill at any moment leaves the old file or the new one, never a mix.
  await writeFileAtomic(absolutePath, content, existing === undefined ? {} : { mode: existing.mode & 0o7777 });
}

/**
 * Describes a pending write for the approval prompt: `summary` like
 * "write_file hello.txt (12 lines) — new file" / "— overwrites existing 3 lines" (or
 * "— will be refused: …" when the path is not allowed), and `preview`: for an existing text file up
 * to 1 MB, a unified diff against what it holds now (`previewFormat: 'diff'`); otherwise the first
 * 10 lines of the content cut at 120 characters each, then "… N more lines". Never throws.
 */
export async function describeWrite(
  workspaceRoot: string,
  input: WriteFileInput,
  options: { secretPatterns?: readonly string[] } = {},
): Promise<{ summary: string; preview: string; previewFormat?: 'diff'; fullPreview?: string }> {
  const lines = countOf(countLines(input.content), 'line');
  try {
    const target = await resolveWorkspaceTarget(workspaceRoot, input.path, {
      forWrite: true,
      secretPatterns: options.secretPatterns ?? [],
    });
    const existing = await describeExisting(target.absolutePath);
    const summary = `write_file ${target.relativePath} (${lines})${existing.note}`;
    if (existing.text === undefined || existing.text.includes('\0')) return { summary, preview: previewOf(input.content), ...wholeOf(input.content) };
    // CRLF pairs are line ends, not something to show; a lone \r stays visible (␍) in the diff.
    const lf = (text: string) => text.replace(/\r\n/g, '\n');
    const preview = await unifiedDiff(target.relativePath, lf(existing.text), lf(input.content), (line) => sanitize(line, { keepNewlines: false }));
    return { summary, preview, previewFormat: 'diff' };
  } catch (error) {
    return { summary: `write_file ${input.path} (${lines}) — will be refused: ${(error as Error).message}`, preview: previewOf(input.content) };
  }
}

async function describeExisting(absolutePath: string): Promise<{ note: string; text?: string }> {
  const existing = await statIfPresent(absolutePath);
  if (existing === undefined) return { note: ' — new file' };
  if (existing.isDirectory()) return { note: ' — will be refused: it is a folder' };
  if (existing.size > MAX_COUNTED_BYTES) return { note: ` — overwrites an existing ${countOf(existing.size, 'byte')} file` };
  try {
    const text = await readFile(absolutePath, 'utf8');
    return { note: ` — overwrites existing ${countOf(countLines(text), 'line')}`, ...(existing.size <= MAX_DIFFED_BYTES && { text }) };
  } catch {
    return { note: ' — overwrites an existing file' };
  }
}

/**
 * The whole content, for the approval menu's "view it whole", when the preview leaves part of it
 * out (lines after the tenth, or the ends of long lines); up to WHOLE_PREVIEW_LINES lines.
 */
function wholeOf(content: string): { fullPreview?: string } {
  const lines = content.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length <= PREVIEW_LINES && lines.every((line) => line.length <= PREVIEW_LINE_CHARS)) return {};
  const rest = lines.length - WHOLE_PREVIEW_LINES;
  return { fullPreview: [...lines.slice(0, WHOLE_PREVIEW_LINES), ...(rest > 0 ? [`… ${countOf(rest, 'more line')}`] : [])].join('\n') };
}

function previewOf(content: string): string {
  if (content === '') return '(empty file)';
  const lines = content.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const shown = lines
    .slice(0, PREVIEW_LINES)
    .map((line) => line.replace(/\r$/, ''))
    .map((line) => (line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS)}…` : line));
  const rest = lines.length - shown.length;
  if (rest > 0) shown.push(`… ${countOf(rest, 'more line')}`);
  return shown.join('\n');
}

async function statIfPresent(absolutePath: string): Promise<Stats | undefined> {
  try {
    return await stat(absolutePath);
  } catch {
    return undefined;
  }
}

function writeFailure(displayPath: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ABORT_ERR') return error as Error;
  if (code === 'EACCES' || code === 'EPERM') return new Error(`cannot write ${displayPath}: permission denied`);
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    return new Error(`cannot write ${displayPath}: part of its folder path is a file, not a folder; choose another path`);
  }
  if (code === 'ENOSPC') return new Error(`cannot write ${displayPath}: the disk is full; the file was left as it was`);
  if (code === 'ESWAPPED') return new Error(`cannot write ${displayPath}: ${(error as Error).message}`);
  return new Error(`cannot write ${displayPath}: ${(error as Error).message}`);
}

/** Lines as an editor counts them: a final newline does not start another line. */
function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}
