import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each file's share of the system prompt; past it the rest is cut, with a note the model reads. */
export const MAX_INSTRUCTION_CHARS = 12_000;

export interface InstructionFile {
  /** How the banner and `/instructions` name it: `AGENTS.md`, `$SYLVAN_HOME/AGENTS.md`. */
  label: string;
  path: string;
  /** The text as it goes to the model (cut when the file was longer). */
  text: string;
  /** Characters in the file, when it was cut. */
  cutFrom?: number;
}

function read(label: string, path: string): InstructionFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  text = text.trim();
  if (text === '') return undefined;
  if (text.length <= MAX_INSTRUCTION_CHARS) return { label, path, text };
  return {
    label,
    path,
    text: `${text.slice(0, MAX_INSTRUCTION_CHARS)}\n[… ${label} was cut here: it has ${text.length.toLocaleString('en-US')} characters, only the first ${MAX_INSTRUCTION_CHARS.toLocaleString('en-US')} are included]`,
    cutFrom: text.length,
  };
}

/**
 * The instructions the user and the project give every conversation: `$SYLVAN_HOME/AGENTS.md`
 * (the user's own, first), then `AGENTS.md` and `SYLVAN.md` at the workspace root (the project's,
 * more specific, last). Missing or empty files are skipped; a small synchronous read, so the banner
 * can name them.
 */
export function loadProjectInstructions(workspaceRoot: string, home: string): InstructionFile[] {
  return [
    read('$SYLVAN_HOME/AGENTS.md', join(home, 'AGENTS.md')),
    read('AGENTS.md', join(workspaceRoot, 'AGENTS.md')),
    read('SYLVAN.md', join(workspaceRoot, 'SYLVAN.md')),
  ].filter((file): file is InstructionFile => file !== undefined);
}

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
