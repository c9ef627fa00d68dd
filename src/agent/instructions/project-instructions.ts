import { join } from 'node:path';
import { readBoundedFile } from '../../shared/bounded-file.ts';
import { digits } from '../../shared/text/count-text.ts';

/** Each file's share of the system prompt; past it the rest is cut, with a note the model reads. */
const MAX_INSTRUCTION_CHARS = 12_000;
/** Enough bytes for that many characters of any script (UTF-8 takes at most 4 a character): the rest is never read. */
const MAX_INSTRUCTION_BYTES = MAX_INSTRUCTION_CHARS * 4;
const BINARY_SNIFF_BYTES = 8 * 1024;

export interface InstructionFile {
  /** How the banner and `/instructions` name it: `AGENTS.md`, `$SYLVAN_HOME/AGENTS.md`. */
  label: string;
  path: string;
  /** The text as it goes to the model (cut when the file was longer). */
  text: string;
  /** Bytes in the file, when it was cut. */
  cutFrom?: number;
}

export interface InstructionFiles {
  files: InstructionFile[];
  /** One line each: files that exist but were not read (a link out or to a secret, a FIFO, a device). */
  refused: string[];
}

interface Place {
  label: string;
  folder: string;
  withinLabel: string;
}

function read(place: Place, name: string, secretPatterns: readonly string[], refused: string[]): InstructionFile | undefined {
  const label = place.label;
  const path = join(place.folder, name);
  const found = readBoundedFile(path, { maxBytes: MAX_INSTRUCTION_BYTES, within: place.folder, withinLabel: place.withinLabel, readFileRules: { secretPatterns } });
  if (found.status === 'missing') return undefined;
  if (found.status === 'refused') {
    refused.push(`${label} was not read: ${found.reason}`);
    return undefined;
  }
  // As read_file: a NUL byte near the start means it is not text (a sparse or binary file); later ones are dropped.
  if (found.bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    refused.push(`${label} was not read: it is not a text file`);
    return undefined;
  }
  // A cut read may end inside a character: its half decodes to U+FFFD, which is dropped.
  let text = found.bytes.toString('utf8').replaceAll('\0', '');
  if (found.cut) text = text.replace(/\uFFFD+$/, '');
  text = text.trim();
  if (text === '') return undefined;
  if (text.length <= MAX_INSTRUCTION_CHARS && !found.cut) return { label, path, text };
  const size = digits(found.size);
  return {
    label,
    path,
    text: `${text.slice(0, MAX_INSTRUCTION_CHARS)}\n[… ${label} was cut here: it has ${size} bytes, only the first ${digits(MAX_INSTRUCTION_CHARS)} characters are included]`,
    cutFrom: found.size,
  };
}

/**
 * The instructions the user and the project give every conversation: `$SYLVAN_HOME/AGENTS.md`
 * (the user's own, first), then `AGENTS.md` and `SYLVAN.md` at the workspace root (the project's,
 * more specific, last). Missing or empty files are skipped. They follow `read_file`'s rules — a
 * cloned repository may carry `AGENTS.md → ~/.ssh/id_rsa` or `SYLVAN.md → .env` — and only their
 * first 48 kB are read. A small synchronous read, so the banner can name them.
 */
export function loadInstructionFiles(workspaceRoot: string, home: string, secretPatterns: readonly string[] = []): InstructionFiles {
  const refused: string[] = [];
  const user: Place = { label: '$SYLVAN_HOME/AGENTS.md', folder: home, withinLabel: '$SYLVAN_HOME' };
  const workspace = (label: string): Place => ({ label, folder: workspaceRoot, withinLabel: 'the workspace' });
  const files = [
    read(user, 'AGENTS.md', secretPatterns, refused),
    read(workspace('AGENTS.md'), 'AGENTS.md', secretPatterns, refused),
    read(workspace('SYLVAN.md'), 'SYLVAN.md', secretPatterns, refused),
  ].filter((file): file is InstructionFile => file !== undefined);
  return { files, refused };
}

/** The files of `loadInstructionFiles`, without the refusals. */
export const loadProjectInstructions = (workspaceRoot: string, home: string, secretPatterns: readonly string[] = []): InstructionFile[] =>
  loadInstructionFiles(workspaceRoot, home, secretPatterns).files;

/** The part of the system prompt they make, or '' when there are none. */
export function instructionsSection(files: readonly InstructionFile[]): string {
  if (files.length === 0) return '';
  const parts = files.map((file) => `<instructions source="${file.label}">\n${file.text}\n</instructions>`);
  return [
    '',
    'The user and the project gave these instructions; follow them unless they conflict with the rules above or with the user\'s request in the conversation:',
    ...parts,
  ].join('\n');
}
