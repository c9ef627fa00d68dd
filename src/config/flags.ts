import { parseArgs } from 'node:util';
import { ConfigError } from '../errors.ts';
import type { ResumeRequest, RunMode } from './config.ts';

export const HELP = `Usage: sylvan [options]            chat in the terminal
       sylvan -p "question"         answer one question and exit (or pipe it on stdin)
       sylvan --acp                 serve an editor over the Agent Client Protocol (stdio)

Options:
  -p, --print             one turn, answer on stdout, tool activity on stderr
      --json              with -p: every event as one JSON line on stdout
      --provider NAME     dashscope | openai | mock            (SYLVAN_PROVIDER)
  -m, --model NAME        model id, e.g. qwen-plus-latest       (SYLVAN_MODEL)
      --max-steps N       model requests per turn, default 10   (SYLVAN_MAX_STEPS)
      --token-budget N    tokens per turn, default 500000       (SYLVAN_TOKEN_BUDGET)
      --timeout SECONDS   limit for each model step, default 120 (SYLVAN_TIMEOUT)
  -y, --yes               approve file writes without asking    (SYLVAN_YES=1)
      --sandbox MODE      commands in a sandbox: auto | on | off (SYLVAN_SANDBOX)
      --mode NAME         ask | auto-edit | plan, default ask   (SYLVAN_MODE)
      --think, --no-think thinking on or off for hybrid Qwen3 models (SYLVAN_THINKING=on|off|auto)
      --thinking-budget N most tokens to think before answering (SYLVAN_THINKING_BUDGET)
  -c, --continue          resume the latest session of this folder
  -r, --resume [ID]       pick a recent session, or open one by id
  -h, --help              this help
  -v, --version           the version

Keys (environment or .env in this folder): DASHSCOPE_API_KEY, OPENAI_API_KEY (+ OPENAI_BASE_URL).
Models: DASHSCOPE_MODEL or OPENAI_MODEL (after --model and SYLVAN_MODEL).
A local server needs no key: OPENAI_BASE_URL=http://localhost:11434/v1 (Ollama).
With no key Sylvan runs a built-in offline mock model.`;

const FLAG_OPTIONS = {
  print: { type: 'boolean', short: 'p' },
  json: { type: 'boolean' },
  acp: { type: 'boolean' },
  provider: { type: 'string' },
  model: { type: 'string', short: 'm' },
  'max-steps': { type: 'string' },
  'token-budget': { type: 'string' },
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
    // Node's text goes on about positionals after "--"; its first sentence is the useful part.
    const first = (error as Error).message.split('\n')[0]?.split(/(?<=\.) /)[0] ?? 'Invalid arguments.';
    throw new ConfigError(`${first} Run sylvan --help for the options.`);
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
