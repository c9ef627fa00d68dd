import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tool } from 'ai';
import { z } from 'zod';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import { unifiedDiff } from './unified-diff.ts';
import { resolveWorkspaceTarget, type WorkspaceToolOptions, type WorkspaceTarget } from '../../shared/workspace-path.ts';
import { countOf } from '../../shared/text/count-text.ts';
import { sanitize, sanitizeLine } from '../../shared/text/sanitize.ts';

export interface EditFileInput {
  path: string;
  old_text: string;
  new_text: string;
  replace_all?: boolean;
}

/** Bigger files are not edited in memory by this tool. */
const MAX_EDIT_BYTES = 10_000_000;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A file as read for editing: its text with `\n` line ends, and how to write it back the same way. */
interface LoadedFile {
  target: WorkspaceTarget;
  text: string;
  crlf: boolean;
  bom: boolean;
  mode: number;
}

/** A planned edit: the text before and after, in `\n` form, and where the replacements start. */
interface PlannedEdit {
  file: LoadedFile;
  after: string;
  count: number;
  firstLine: number;
}

/**
 * Creates the `edit_file` tool: replaces `old_text` with `new_text` exactly once (or every
 * occurrence with `replace_all`). Zero matches, or several without `replace_all`, are errors that
 * tell the model how to fix the call. The write is atomic and keeps the file's line endings (a
 * CRLF file stays CRLF), its UTF-8 byte-order mark if it had one, and its mode. Same boundary and
 * secret rules as `write_file`. Approval is asked by the agent loop, using `describeEdit`.
 */
export function createEditFileTool(options: WorkspaceToolOptions) {
  return tool({
    description:
      'Replace exact text in a workspace file. old_text must match exactly (whitespace too; copy from read_file without the ' +
      'line numbers) and only once unless replace_all is true: quote surrounding lines to make it unique. Prefer this to ' +
      'write_file for changing part of a file. The user approves the diff. Line endings and encoding are kept.',
    inputSchema: z.object({
      path: z.string().min(1).describe('File path relative to the workspace root, e.g. "src/index.ts".'),
      old_text: z.string().describe('The exact text to replace.'),
      new_text: z.string().describe('The text to put in its place.'),
      replace_all: z.boolean().optional().describe('Replace every occurrence instead of exactly one (default false).'),
    }),
    async execute(input, { abortSignal }) {
      const plan = await planEdit(options, input);
      abortSignal?.throwIfAborted();
      const { file } = plan;
      const body = file.crlf ? plan.after.replace(/\n/g, '\r\n') : plan.after;
      const bytes = Buffer.concat([file.bom ? UTF8_BOM : Buffer.alloc(0), Buffer.from(body, 'utf8')]);
      try {
        if (options.editorFiles) await options.editorFiles.write(file.target.absolutePath, body);
        else await writeFileAtomic(file.target.absolutePath, bytes, { mode: file.mode });
      } catch (error) {
        throw editFailure(file.target.relativePath, error);
      }
      const where = plan.count === 1 ? `at line ${plan.firstLine}` : `first at line ${plan.firstLine}`;
      return `Edited ${file.target.relativePath}: replaced ${countOf(plan.count, 'occurrence')} ${where}.`;
    },
  });
}

/**
 * Describes a pending edit for the approval prompt: `summary` like "edit_file src/a.ts (1 replacement)"
 * (or "— will be refused: …"), `preview` a unified diff, sanitised, and `previewFormat: 'diff'` so
 * the terminal can colour it. Never throws.
 */
export async function describeEdit(
  workspaceRoot: string,
  input: EditFileInput,
  options: { secretPatterns?: readonly string[] } = {},
): Promise<{ summary: string; preview: string; previewFormat?: 'diff' }> {
  try {
    const plan = await planEdit({ workspaceRoot, secretPatterns: options.secretPatterns }, input);
    const path = plan.file.target.relativePath;
    const preview = await unifiedDiff(path, plan.file.text, plan.after, (line) => sanitize(line, { keepNewlines: false }));
    return { summary: `edit_file ${sanitizeLine(path)} (${countOf(plan.count, 'replacement')})`, preview, previewFormat: 'diff' };
  } catch (error) {
    return { summary: `edit_file ${sanitizeLine(String(input.path))} — will be refused: ${sanitizeLine((error as Error).message)}`, preview: '' };
  }
}

async function planEdit(options: WorkspaceToolOptions, input: EditFileInput): Promise<PlannedEdit> {
  if (input.old_text === '') {
    throw new Error('old_text is empty; quote the exact text to replace (to create a file or replace all of it, use write_file)');
  }
  const file = await loadFile(options, input.path);
  const shown = file.target.relativePath;
  const oldText = file.crlf ? input.old_text.replace(/\r\n/g, '\n') : input.old_text;
  const newText = file.crlf ? input.new_text.replace(/\r\n/g, '\n') : input.new_text;
  if (oldText === newText) throw new Error('old_text and new_text are the same, so there is nothing to change');

  const positions = occurrences(file.text, oldText);
  if (positions.length === 0) throw new Error(notFoundMessage(shown, file.text, oldText));
  const lines = positions.map((index) => lineAt(file.text, index));
  if (positions.length > 1 && input.replace_all !== true) {
    throw new Error(
      `old_text occurs ${positions.length} times in ${shown} (at lines ${listLines(lines)}); quote more of the surrounding lines so it matches exactly once, or set replace_all to true to replace every occurrence`,
    );
  }
  const after = file.text.split(oldText).join(newText);
  return { file, after, count: positions.length, firstLine: lines[0] ?? 1 };
}

async function loadFile(options: WorkspaceToolOptions, userPath: string): Promise<LoadedFile> {
  const target = await resolveWorkspaceTarget(options.workspaceRoot, userPath, {
    forWrite: true,
    secretPatterns: options.secretPatterns ?? [],
  });
  let stats: Stats;
  try {
    stats = await stat(target.absolutePath);
  } catch {
    throw new Error(`file ${userPath} does not exist in the workspace; check the path with list_files, or create it with write_file`);
  }
  if (stats.isDirectory()) throw new Error(`${target.relativePath} is a folder; give the path of a file inside it`);
  if (!stats.isFile()) throw new Error(`${target.relativePath} is not a regular file and cannot be edited`);
  if (stats.size > MAX_EDIT_BYTES) throw new Error(`${target.relativePath} is larger than 10 MB; edit_file does not edit files that big`);
  let bytes: Buffer;
  try {
    bytes = options.editorFiles ? Buffer.from(await options.editorFiles.read(target.absolutePath), 'utf8') : await readFile(target.absolutePath);
  } catch (error) {
    throw editFailure(target.relativePath, error);
  }
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
  const body = bom ? bytes.subarray(3) : bytes;
  if (body.includes(0)) throw new Error(`${target.relativePath} is a binary file; edit_file only edits text files`);
  let raw: string;
  try {
    raw = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new Error(`${target.relativePath} is not valid UTF-8 text; edit_file only edits UTF-8 files, so it was left unchanged`);
  }
  // A file whose every line ends in CRLF is edited with \n and written back with CRLF; a mixed file is edited as it is.
  const crlf = raw.includes('\r\n') && !/(^|[^\r])\n/.test(raw);
  return { target, text: crlf ? raw.replace(/\r\n/g, '\n') : raw, crlf, bom, mode: stats.mode & 0o7777 };
}

function occurrences(text: string, needle: string): number[] {
  const positions: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    positions.push(index);
  }
  return positions;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let position = text.indexOf('\n'); position !== -1 && position < index; position = text.indexOf('\n', position + 1)) line++;
  return line;
}

function listLines(lines: number[]): string {
  return lines.length <= 10 ? lines.join(', ') : `${lines.slice(0, 10).join(', ')}, …`;
}

/** Tells the model why nothing matched and, when the first line is there with other spacing, where to look. */
function notFoundMessage(shown: string, text: string, oldText: string): string {
  const base = `old_text was not found in ${shown}. It must match the file exactly, including spaces, tabs and line breaks; read_file the part you want to change and copy the text exactly (without the line-number prefix)`;
  const firstLine = oldText.split('\n').find((line) => line.trim() !== '')?.trim();
  if (!firstLine) return base;
  const fileLines = text.split('\n');
  const near = fileLines.findIndex((line) => line.trim() === firstLine);
  if (near >= 0) return `${base}. A line like its first line is at line ${near + 1}, but the rest differs (whitespace or the following lines)`;
  const loose = fileLines.findIndex((line) => line.toLowerCase().includes(firstLine.toLowerCase()));
  if (loose >= 0) return `${base}. Something similar (differing in case) is at line ${loose + 1}`;
  return base;
}

function editFailure(displayPath: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return new Error(`cannot edit ${displayPath}: permission denied`);
  if (code === 'ENOSPC') return new Error(`cannot edit ${displayPath}: the disk is full`);
  return new Error(`cannot edit ${displayPath}: ${(error as Error).message}`);
}
