/**
 * What an "always" answer to a command covers: its leading words. Kept light (no imports): the
 * approval policy loads it before the SDK.
 *
 * The key is the program and up to two following words that look like subcommands (letters, digits,
 * `.`, `_`, `:`, `@`, `+`, `-`, not starting with `-`): `npm test -- --watch` → `npm test`,
 * `git status` → `git status`, `git log --oneline` → `git log`, `npm run build` → `npm run build`,
 * `ls -la` → `ls`. A later command is covered when its key is the same, so `npm test` covers
 * `npm test --coverage` but never `npm publish`.
 *
 * A command with anything the shell could use to run or change something else — `;`, `&`, `|`,
 * `<`, `>`, a backtick, `$(`, a newline, or a leading `VAR=value` — has no key: it is asked every time.
 */
const COMPOUND = /[;&|<>`\n\r]|\$\(/;
const PROGRAM = /^[A-Za-z0-9_./@+-]+$/;
const SUBCOMMAND = /^[A-Za-z0-9][A-Za-z0-9._:@+-]*$/;
const MAX_SUBCOMMANDS = 2;

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

/** The approval scope of a `run_command` call, in the shape `approval-scope.ts` uses. */
export function commandScope(input: unknown): { key: string; alwaysLabel: string; oneTime?: true } {
  const command = typeof (input as { command?: unknown } | null)?.command === 'string' ? (input as { command: string }).command : '';
  const prefix = commandPrefix(command);
  if (prefix === undefined) {
    return { key: `command-once:${command}`, alwaysLabel: '', oneTime: true };
  }
  return { key: `command:${prefix}`, alwaysLabel: `\`${prefix} …\` this session` };
}
