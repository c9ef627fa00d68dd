import { readdirSync, realpathSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { readWholeSmallFile } from '../shared/bounded-file.ts';
import { isInside } from '../shared/workspace-path.ts';
import type { CommandSource, CustomCommand, LoadedCommands } from './custom-command.ts';
import { parseCommandFile } from './front-matter.ts';

/** A prompt is a few kB; a file past this is a mistake (or not a prompt), and is not read at all. */
export const MAX_COMMAND_FILE_BYTES = 32_000;
/** `group/sub/name.md` at the deepest: `/group:sub:name`. */
const MAX_GROUP_DEPTH = 2;
/** Commands taken from one folder; the rest are left out with a note. */
const MAX_COMMANDS_PER_FOLDER = 200;
/** A name's parts: what a file or folder name may be. */
const NAME_PART = /^[a-z0-9_-]{1,64}$/;
/** A model id as a provider takes it (`qwen-flash`, `gpt-4o-mini`, `meta-llama/Llama-3.1-8B`): one word, no scheme. */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/+-]{0,127}$/;
const DESCRIPTION_CHARS = 80;

export interface LoadCommandsOptions {
  workspaceRoot: string;
  /** $SYLVAN_HOME. */
  home: string;
  /** The built-in commands' names (`/help`…): a file of the same name never replaces one. */
  builtIns: readonly string[];
}

interface Folder {
  source: CommandSource;
  /** The commands folder itself. */
  folder: string;
  /** What the folder must stay inside: the workspace, or $SYLVAN_HOME. */
  root: string;
  /** How the user names it: `.sylvan/commands`, `$SYLVAN_HOME/commands`. */
  label: string;
  rootLabel: string;
}

/**
 * Reads the custom commands: `.sylvan/commands/NAME.md` in the workspace (the project's) and
 * `$SYLVAN_HOME/commands/NAME.md` (the user's, which wins on a clash); `group/NAME.md` is
 * `/group:NAME`. Names are lower-case letters, digits, `_` and `-`, at most two folders deep. Each
 * file is read through `readWholeSmallFile`: a regular file inside its folder (no link out), at
 * most 32 kB, else left out. A file named as a built-in command is never used. Everything left
 * out is one line in `notes`. Synchronous and small (the `/` menu needs the names at the first
 * prompt); never throws.
 */
export function loadCustomCommands(options: LoadCommandsOptions): LoadedCommands {
  const notes: string[] = [];
  const byName = new Map<string, CustomCommand>();
  const folders: Folder[] = [
    {
      source: 'project',
      folder: path.join(options.workspaceRoot, '.sylvan', 'commands'),
      root: options.workspaceRoot,
      label: '.sylvan/commands',
      rootLabel: 'the workspace',
    },
    { source: 'user', folder: path.join(options.home, 'commands'), root: options.home, label: '$SYLVAN_HOME/commands', rootLabel: '$SYLVAN_HOME' },
  ];
  const builtIns = new Set(options.builtIns.map((name) => name.replace(/^\//, '')));
  for (const folder of folders) {
    for (const command of readFolder(folder, notes)) {
      if (builtIns.has(command.name)) {
        notes.push(`(${command.file} is not used: /${command.name} is a built-in command, which a file never replaces; rename the file)`);
        continue;
      }
      const earlier = byName.get(command.name);
      byName.set(command.name, earlier && earlier.source !== command.source ? { ...command, overridesProject: true } : command);
    }
  }
  const commands = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { commands, notes };
}

function readFolder(folder: Folder, notes: string[]): CustomCommand[] {
  let real: string;
  let root: string;
  try {
    real = realpathSync(folder.folder);
    root = realpathSync(folder.root);
  } catch {
    return []; // no commands folder
  }
  if (!isInside(root, real)) {
    notes.push(`(${folder.label} leads outside ${folder.rootLabel}, to ${real}; its commands are not loaded)`);
    return [];
  }
  const found: CustomCommand[] = [];
  walk(folder, real, [], found, notes);
  if (found.length > MAX_COMMANDS_PER_FOLDER) {
    notes.push(`(${folder.label} has more than ${MAX_COMMANDS_PER_FOLDER} commands; the first ${MAX_COMMANDS_PER_FOLDER} by name are used)`);
    return found.slice(0, MAX_COMMANDS_PER_FOLDER);
  }
  return found;
}

/** Collects the commands of `groups` (the sub-folders on the way) inside the real folder `real`. */
function walk(folder: Folder, real: string, groups: string[], found: CustomCommand[], notes: string[]): void {
  const relativeFolder = groups.join('/');
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(real, ...groups), { withFileTypes: true });
  } catch (error) {
    notes.push(`(${[folder.label, relativeFolder].filter(Boolean).join('/')} could not be read: ${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.') || found.length > MAX_COMMANDS_PER_FOLDER) continue;
    const shown = `${folder.label}/${[...groups, entry.name].join('/')}`;
    if (entry.isDirectory()) {
      if (!NAME_PART.test(entry.name)) notes.push(`(${shown}/ is not a command group: folder names use a-z, 0-9, _ and -)`);
      else if (groups.length >= MAX_GROUP_DEPTH) notes.push(`(${shown}/ is not read: command groups go ${MAX_GROUP_DEPTH} folders deep at most)`);
      else walk(folder, real, [...groups, entry.name], found, notes);
      continue;
    }
    if (!entry.name.endsWith('.md')) continue;
    const base = entry.name.slice(0, -'.md'.length);
    if (!NAME_PART.test(base)) {
      notes.push(`(${shown} is not a command: names use a-z, 0-9, _ and -)`);
      continue;
    }
    const command = readCommand(folder, real, [...groups, entry.name].join('/'), [...groups, base].join(':'), shown, notes);
    if (command) found.push(command);
  }
}

function readCommand(folder: Folder, real: string, relative: string, name: string, shown: string, notes: string[]): CustomCommand | undefined {
  // A link is followed only to a file inside the commands folder itself.
  const read = readWholeSmallFile(relative, { maxBytes: MAX_COMMAND_FILE_BYTES, within: real, withinLabel: folder.label });
  if (read.status === 'missing') return undefined;
  if (read.status === 'refused') {
    notes.push(`(${shown} was not read: ${read.reason})`);
    return undefined;
  }
  if (read.bytes.includes(0)) {
    notes.push(`(${shown} is not used: it is not text)`);
    return undefined;
  }
  const parsed = parseCommandFile(read.bytes.toString('utf8'));
  if (!parsed.ok) {
    notes.push(`(${shown} is not used: ${parsed.problem})`);
    return undefined;
  }
  if (parsed.body.trim() === '') {
    notes.push(`(${shown} is not used: it has no prompt after its front matter)`);
    return undefined;
  }
  const { description, argumentHint, model } = parsed.frontMatter;
  let usedModel = model;
  if (model !== undefined && (!MODEL_NAME.test(model) || model.includes('://'))) {
    notes.push(`(${shown}: model "${model}" is not a model name, so the command uses the current model)`);
    usedModel = undefined;
  }
  return {
    name,
    source: folder.source,
    file: shown,
    description: description ?? firstLine(parsed.body),
    ...(argumentHint !== undefined && { argumentHint }),
    ...(usedModel !== undefined && { model: usedModel }),
    body: parsed.body,
  };
}

function firstLine(body: string): string {
  const line = (body.split('\n').find((candidate) => candidate.trim() !== '') ?? '').trim().replace(/^#+\s*/, '');
  return line.length > DESCRIPTION_CHARS ? `${line.slice(0, DESCRIPTION_CHARS - 1)}…` : line;
}
