import { statSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedFile } from '../../shared/bounded-file.ts';
import type { AgentSetup } from '../../runtime/runtime.ts';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import { resolveWorkspaceTarget } from '../../shared/workspace-path.ts';
import type { CommandState } from '../state/repl-state.ts';
import { sanitize, sanitizeLine } from '../../shared/text/sanitize.ts';
import { digits } from '../../shared/text/count-text.ts';

type MemoryState = CommandState<Pick<AgentSetup, 'instructionFiles' | 'reloadInstructions'>>;

/** An instruction file past this is not appended to: it would be cut in the system prompt anyway. */
const MAX_MEMORY_FILE_BYTES = 1_000_000;

interface MemoryFile {
  label: string;
  /** The folder it lies in, whose rules the write follows (no link out, no secret file). */
  folder: string;
  /** As the approval policy sees a write: relative in the workspace, absolute elsewhere. */
  policyPath: string;
}

const projectFile = (state: MemoryState): MemoryFile => ({ label: 'AGENTS.md', folder: state.config.cwd, policyPath: 'AGENTS.md' });
const userFile = (state: MemoryState): MemoryFile => ({ label: '$SYLVAN_HOME/AGENTS.md', folder: state.config.home, policyPath: join(state.config.home, 'AGENTS.md') });

/** `/memory`, `/memory add <text>`, `/memory edit`, `/memory reload`. */
export async function memoryCommand(argument: string, state: MemoryState): Promise<void> {
  const [word = '', ...rest] = argument.trim().split(/\s+/);
  switch (word.toLowerCase()) {
    case '':
      return showMemory(state);
    case 'add':
      return addMemory(argument.trim().slice(word.length).trim(), state);
    case 'edit':
      return editMemory(state);
    case 'reload':
      state.runtime.reloadInstructions();
      state.print('  Read the instruction files again; the next request carries them:');
      return showMemory(state);
    default:
      state.print(`  Unknown /memory ${sanitizeLine([word, ...rest].join(' '))}. Try /memory, /memory add <text>, /memory edit or /memory reload.`);
  }
}

/** The instruction files in force, with paths and sizes, and where the others would go. */
function showMemory(state: MemoryState): void {
  const files = state.runtime.instructionFiles;
  if (files.length === 0) state.print('  No instruction files in force yet.');
  for (const file of files) {
    const size = sizeOf(file.path);
    state.print(`  ${file.label}  ${state.dim(`${sanitizeLine(file.path)} · ${size === undefined ? '?' : digits(size)} bytes${file.cutFrom === undefined ? '' : ' (cut in the prompt)'}`)}`);
  }
  state.print(state.dim('  Yours: $SYLVAN_HOME/AGENTS.md; the project\'s: AGENTS.md and SYLVAN.md. /memory add <text> (or a line starting with #) remembers a fact, /memory edit opens one in $EDITOR, /memory reload reads them again.'));
}

/** Appends `- text` to the file the user picks, after the write approval; the next request carries it. */
export async function addMemory(text: string, state: MemoryState): Promise<void> {
  const fact = text.replace(/\s+/g, ' ').trim();
  if (fact === '') return state.print('  Nothing to remember: /memory add <text>, or a line starting with #.');
  const file = await pickFile(state, `Remember "${cutForQuestion(fact)}" in`);
  if (!file) return state.print('  Nothing was written.');
  const current = await readForWrite(file, state);
  if (current === undefined) return;
  const line = `- ${fact.replace(/^[-*]\s+/, '')}`;
  const next = `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${line}\n`;
  if (!(await approved(file, `Append to ${file.label}: ${line}`, next, state))) return;
  if (await write(file, next, state)) {
    state.runtime.reloadInstructions();
    state.print(`  Remembered in ${file.label}; the next request's instructions carry it.`);
  }
}

async function editMemory(state: MemoryState): Promise<void> {
  const file = await pickFile(state, 'Edit');
  if (!file) return state.print('  Nothing was opened.');
  const current = await readForWrite(file, state);
  if (current === undefined) return;
  const { editInExternalEditor } = await import('../input/external-editor.ts');
  const outcome = await editInExternalEditor(current);
  if (outcome.kind === 'failed') return state.print(`  ${sanitizeLine(outcome.message.replace('the input is unchanged', `${file.label} is unchanged`).replace('The input', file.label))}`);
  const next = `${outcome.text}\n`;
  if (next === current) return state.print(`  ${file.label} is unchanged.`);
  if (!(await approved(file, `Save your edit of ${file.label}`, next, state))) return;
  if (await write(file, next, state)) {
    state.runtime.reloadInstructions();
    state.print(`  Saved ${file.label}; the next request's instructions carry it.`);
  }
}

/** The project's file or the user's, asked: a one-key menu on a terminal, else a line. */
async function pickFile(state: MemoryState, verb: string): Promise<MemoryFile | undefined> {
  const question = `${verb} the project's AGENTS.md or yours ($SYLVAN_HOME/AGENTS.md)?`;
  if (state.choose) {
    const picked = await state.choose(question, [
      { key: 'p', label: "the project's AGENTS.md (shared with everyone who works here)" },
      { key: 'u', label: 'yours, $SYLVAN_HOME/AGENTS.md (every project)' },
    ]);
    if (picked.kind !== 'choice') return undefined;
    return picked.key === 'u' ? userFile(state) : projectFile(state);
  }
  const answer = (await state.ask(`  ${question} [p]roject / [u]ser › `))?.trim().toLowerCase();
  if (answer === 'p' || answer === 'project') return projectFile(state);
  if (answer === 'u' || answer === 'user') return userFile(state);
  return undefined;
}

/** The file's text now ('' when there is none), or undefined after saying why it cannot be written. */
async function readForWrite(file: MemoryFile, state: MemoryState): Promise<string | undefined> {
  const read = readBoundedFile(join(file.folder, 'AGENTS.md'), { maxBytes: MAX_MEMORY_FILE_BYTES + 1, within: file.folder, withinLabel: file.label, readFileRules: { secretPatterns: [] } });
  if (read.status === 'missing') return '';
  if (read.status === 'refused') {
    state.print(`  ✗ ${file.label} cannot be written: ${sanitizeLine(read.reason)}.`);
    return undefined;
  }
  if (read.cut) {
    state.print(`  ✗ ${file.label} is larger than ${digits(MAX_MEMORY_FILE_BYTES)} bytes; edit it yourself.`);
    return undefined;
  }
  return read.bytes.toString('utf8');
}

/** The write approval every file write has: the mode, --yes, settings and "always" decide; else the user is asked. */
async function approved(file: MemoryFile, summary: string, content: string, state: MemoryState): Promise<boolean> {
  const decision = state.approval.decide('write_file', { path: file.policyPath, content });
  if (decision === 'allow' || decision === 'not-needed') return true;
  if (decision !== 'ask') {
    state.print(`  ✗ ${file.label} was not changed: ${sanitizeLine(decision.deny)}`);
    return false;
  }
  state.print(`  ${sanitize(summary)}`);
  let yes: boolean;
  if (state.choose) {
    const picked = await state.choose(`Write ${file.label}?`, [
      { key: 'y', label: 'yes' },
      { key: 'n', label: 'no' },
    ]);
    yes = picked.kind === 'choice' && picked.key === 'y';
  } else {
    const answer = (await state.ask(`  Write ${file.label}? [y]es / [n]o › `))?.trim().toLowerCase();
    yes = answer === 'y' || answer === 'yes';
  }
  if (!yes) state.print(`  ${file.label} was not changed.`);
  return yes;
}

async function write(file: MemoryFile, content: string, state: MemoryState): Promise<boolean> {
  try {
    const target = await resolveWorkspaceTarget(file.folder, 'AGENTS.md', { forWrite: true, secretPatterns: state.config.secretPatterns });
    await writeFileAtomic(target.absolutePath, content);
    return true;
  } catch (error) {
    state.print(`  ✗ ${file.label} was not changed: ${sanitizeLine((error as Error).message)}`);
    return false;
  }
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

const cutForQuestion = (text: string): string => sanitizeLine(text.length > 60 ? `${text.slice(0, 59)}…` : text);
