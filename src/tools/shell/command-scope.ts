/**
 * What an "always" answer to a command covers: its leading words, with options known to be
 * harmless. Kept light (node:path only): the approval policy loads it before the SDK.
 *
 * The key is the program and up to two following words that look like subcommands (letters, digits,
 * `.`, `_`, `:`, `@`, `+`, `-`, not starting with `-`): `npm test -- --watch` → `npm test`,
 * `git status` → `git status`, `git log --oneline` → `git log`, `npm run build` → `npm run build`,
 * `ls -la` → `ls`. A later command is covered when its key is the same, so `npm test` covers
 * `npm test --coverage` but never `npm publish`.
 *
 * A command with anything the shell could use to run or change something else — `;`, `&`, `|`,
 * `<`, `>`, a backtick, `$(`, a newline, or a leading `VAR=value` — has no key: it is asked every time.
 * So is one with a word that points somewhere (`pointingWord`): `npm test --prefix /elsewhere`,
 * `git log --output=/outside/file`, `git -C ../other status` are asked even after "always".
 */
import { isAbsolute, relative, resolve } from 'node:path';

const COMPOUND = /[;&|<>`\n\r]|\$\(/;
const PROGRAM = /^[A-Za-z0-9_./@+-]+$/;
const SUBCOMMAND = /^[A-Za-z0-9][A-Za-z0-9._:@+-]*$/;
const MAX_SUBCOMMANDS = 2;

/**
 * Options that name a place to read code from, write to or run in — another package, another
 * repository, a file outside, a program to run — whatever their value.
 */
const POINTING_LONG = new Set([
  'prefix', 'output', 'output-file', 'output-dir', 'out-dir', 'outdir', 'outfile', 'out-file', 'git-dir', 'work-tree',
  'exec', 'exec-path', 'script-shell', 'shell', 'upload-pack', 'receive-pack', 'config', 'config-file', 'userconfig',
  'globalconfig', 'global', 'location', 'cache', 'cache-dir', 'cache-folder', 'registry', 'directory', 'dir', 'cwd',
  'root', 'target', 'target-dir', 'destination', 'dest', 'install-dir', 'log-file', 'logfile', 'tmp', 'tmpdir',
  'require', 'import', 'loader', 'experimental-loader', 'eval', 'print', 'init-file', 'rcfile', 'file', 'makefile',
  'include', 'include-dir', 'plugin', 'preload', 'pager', 'editor', 'template', 'hooks', 'hooks-path', 'node-options',
]);
/** Short options with the same meaning in the common tools: `git -C`, `-o out`, `node -e`, `git -c`, `npm -g`. */
const POINTING_SHORT = new Set(['C', 'o', 'e', 'c', 'g']);

/** A word as the shell would pass it, near enough: quotes and backslashes removed. */
const unquoted = (word: string): string => word.replace(/["'\\]/g, '');

function leavesWorkspace(path: string, workspaceRoot: string): boolean {
  const target = isAbsolute(path) ? path : resolve(workspaceRoot, path);
  const within = relative(workspaceRoot, target);
  return within === '..' || within.startsWith('../') || isAbsolute(within);
}

/** Why `word` points somewhere an "always" must not reach, or undefined when it is harmless. */
function pointing(raw: string, workspaceRoot: string): string | undefined {
  // `$HOME`, `${x}`, `{a,b}`, `{1..3}` and a leading `~` become words we cannot see here (`HEAD~1`, `@{u}` stay as they are).
  if (/\$|^~|[=:]~|\{[^}]*(?:,|\.\.)[^}]*\}/.test(raw)) return `${raw} (the shell expands it)`;
  const word = unquoted(raw);
  const long = /^--([^=]+)(?:=(.*))?$/.exec(word);
  if (long) {
    if (POINTING_LONG.has(long[1]!.toLowerCase())) return `--${long[1]}`;
    if (long[2] !== undefined && (long[2].startsWith('/') || long[2].includes('..')) && leavesWorkspace(long[2], workspaceRoot)) return word;
    return undefined;
  }
  if (/^-[^-]/.test(word)) {
    if (POINTING_SHORT.has(word[1]!)) return `-${word[1]}`;
    const value = word.includes('=') ? word.slice(word.indexOf('=') + 1) : '';
    return value !== '' && leavesWorkspace(value, workspaceRoot) ? word : undefined;
  }
  const value = word.includes('=') && !word.startsWith('/') ? word.slice(word.indexOf('=') + 1) : word;
  if ((value.startsWith('/') || value.split('/').includes('..')) && leavesWorkspace(value, workspaceRoot)) return word;
  return undefined;
}

export function commandPrefix(command: string): string | undefined {
  if (COMPOUND.test(command)) return undefined;
  const words = command.trim().split(/[ \t]+/);
  const program = words[0] ?? '';
  if (program === '' || !PROGRAM.test(program) || program.includes('=')) return undefined;
  const kept = [program];
  for (const word of words.slice(1)) {
    if (kept.length > MAX_SUBCOMMANDS || !SUBCOMMAND.test(word)) break;
    kept.push(word);
  }
  return kept.join(' ');
}

/**
 * The first word after the program that points outside what "always" may cover — an option that
 * names a place or a program (`--prefix`, `-C`, `--output`, `--git-dir`, `--work-tree`, `--exec`,
 * `--script-shell`…), a value `=/…`, a path that leaves the workspace, a word the shell expands —
 * or undefined when every word is harmless.
 */
export function pointingWord(command: string, workspaceRoot: string = process.cwd()): string | undefined {
  for (const word of command.trim().split(/[ \t]+/).slice(1)) {
    const found = pointing(word, workspaceRoot);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * What an "always" answer would cover, in words for the approval prompt, e.g. "`npm test` with
 * options that stay in the workspace, for this session; options that point elsewhere ask again".
 */
export function alwaysCovers(command: string, workspaceRoot: string = process.cwd()): string {
  const prefix = commandPrefix(command);
  if (prefix === undefined) return 'nothing: a command that chains, redirects or substitutes is asked every time';
  const found = pointingWord(command, workspaceRoot);
  if (found !== undefined) return `nothing: ${found} points outside the workspace or to other code, so this command is asked every time`;
  return `\`${prefix}\` with options that stay in the workspace, for this session; an option that points elsewhere (--prefix, -C, --output, a path outside…) asks again`;
}

/** The approval scope of a `run_command` call, in the shape a tool spec's `scope` gives (`tool-spec.ts`). */
export function commandScope(input: unknown, workspaceRoot: string = process.cwd()): { key: string; alwaysLabel: string; oneTime?: true } {
  const command = typeof (input as { command?: unknown } | null)?.command === 'string' ? (input as { command: string }).command : '';
  const prefix = commandPrefix(command);
  if (prefix === undefined || pointingWord(command, workspaceRoot) !== undefined) {
    return { key: `command-once:${command}`, alwaysLabel: '', oneTime: true };
  }
  return { key: `command:${prefix}`, alwaysLabel: `\`${prefix} …\` this session` };
}
