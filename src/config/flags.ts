import { parseArgs } from 'node:util';
import { ConfigError } from '../shared/config-error.ts';
import { argumentProblem } from './help-text.ts';
import type { ResumeRequest, RunMode } from './config.ts';

export { HELP } from './help-text.ts';

const FLAG_OPTIONS = {
  print: { type: 'boolean', short: 'p' },
  json: { type: 'boolean' },
  acp: { type: 'boolean' },
  provider: { type: 'string' },
  model: { type: 'string', short: 'm' },
  'max-steps': { type: 'string' },
  'token-budget': { type: 'string' },
  'turn-cost-budget': { type: 'string' },
  'session-cost-budget': { type: 'string' },
  'session-request-budget': { type: 'string' },
  'turn-time-budget': { type: 'string' },
  'session-time-budget': { type: 'string' },
  timeout: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  sandbox: { type: 'string' },
  mode: { type: 'string' },
  think: { type: 'boolean' },
  'no-think': { type: 'boolean' },
  'thinking-budget': { type: 'string' },
  continue: { type: 'boolean', short: 'c' },
  resume: { type: 'string', short: 'r' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** The command line's flags, as given (validated where they are used). */
export type Flags = ReturnType<typeof parseArgs<{ options: typeof FLAG_OPTIONS; allowPositionals: true; strict: true }>>['values'];

/** What the command line asks for: the flags, and for print mode the question and where the turn goes. */
export interface CommandLine {
  flags: Flags;
  mode: RunMode;
  resume: ResumeRequest | undefined;
}

/** `--resume` takes an optional id, which parseArgs cannot express: give it an empty one. */
function normaliseResume(argv: string[]): string[] {
  return argv.flatMap((argument, index) => {
    if (argument !== '--resume' && argument !== '-r') return [argument];
    const next = argv[index + 1];
    return next === undefined || next.startsWith('-') ? [argument, ''] : [argument];
  });
}

/**
 * Reads the command line. Throws `ConfigError` (one line, exit code 2) for an unknown flag, a
 * missing value, a stray argument or flags that exclude each other; `help`/`version` are answered by the caller.
 */
export function parseCommandLine(argv: string[]): CommandLine | { help: true } | { version: true } {
  let parsed;
  try {
    parsed = parseArgs({ args: normaliseResume(argv), allowPositionals: true, strict: true, options: FLAG_OPTIONS });
  } catch (error) {
    throw new ConfigError(argumentProblem((error as Error).message));
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (values.version) return { version: true };

  // `sylvan acp` is how some editors' registries spell it.
  const acp = values.acp === true || (positionals.length === 1 && positionals[0] === 'acp');
  if (acp) {
    if (values.print === true || values.json === true) throw new ConfigError('--acp serves an editor; it cannot be combined with -p or --json.');
    if (values.continue !== undefined || values.resume !== undefined) throw new ConfigError('--acp resumes sessions when the editor asks (session/load); drop --continue and --resume.');
    if (positionals.length > 0 && positionals[0] !== 'acp') throw new ConfigError(`Unexpected argument "${positionals[0]}" with --acp.`);
    return { flags: values, mode: { kind: 'acp' }, resume: undefined };
  }
  const print = values.print === true || values.json === true;
  const prompt = positionals.join(' ').trim();
  if (!print && prompt !== '') {
    throw new ConfigError(`Unexpected argument "${positionals[0]}". To ask one question, use: sylvan -p "${prompt}"`);
  }

  let resume: ResumeRequest | undefined;
  if (values.continue) resume = { kind: 'latest' };
  if (values.resume !== undefined) {
    if (resume) throw new ConfigError('Use either --continue or --resume, not both.');
    resume = values.resume === '' ? { kind: 'pick' } : { kind: 'id', id: values.resume };
  }
  if (print && resume?.kind === 'pick') throw new ConfigError('--resume needs a session id in print mode.');
  return { flags: values, mode: print ? { kind: 'print', prompt: prompt === '' ? undefined : prompt } : { kind: 'repl' }, resume };
}
