import { execFile } from 'node:child_process';
import { installExitHook } from '../tools/shell/process-group.ts';
import { MARK_VARIABLE, newProcessMark } from '../tools/shell/process-marks.ts';

/** Settings passed with `-c` on every call: nothing from the user's configuration runs or rewrites anything. */
const FENCED_SETTINGS = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.autocrlf=false',
  'core.eol=lf',
  'core.attributesFile=/dev/null',
  'core.safecrlf=false',
  'core.symlinks=true',
  'core.quotePath=false',
  'commit.gpgSign=false',
  'gc.auto=0',
  'maintenance.auto=false',
];

/** Far above any listing of a workspace Sylvan can snapshot; the output is read whole. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
/** A snapshot of any workspace Sylvan can keep takes seconds; one that hangs (a FIFO git opens) must not hold the turn. */
const GIT_TIMEOUT_MS = 60_000;

export interface GitResult {
  stdout: Buffer;
  stderr: string;
}

/**
 * The environment every checkpoint `git` runs in: the caller's, with every `GIT_*` variable taken
 * out (a `GIT_DIR` or `GIT_INDEX_FILE` from the user's shell must not redirect a snapshot into
 * their repository), no system or global configuration, no prompts, no optional locks on a
 * repository that is only read.
 */
function isolatedGitEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) if (!key.startsWith('GIT_')) environment[key] = value;
  return {
    ...environment,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_AUTHOR_NAME: 'Sylvan',
    GIT_AUTHOR_EMAIL: 'checkpoints@sylvan.invalid',
    GIT_COMMITTER_NAME: 'Sylvan',
    GIT_COMMITTER_EMAIL: 'checkpoints@sylvan.invalid',
    LC_ALL: 'C',
  };
}

/**
 * Runs `git` fenced (see `isolatedGitEnvironment` and the `-c` settings) and resolves with its
 * output; rejects with an Error naming the git command and its first stderr line.
 */
export function runGit(
  args: readonly string[],
  options: { cwd: string; input?: Buffer | string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<GitResult> {
  const fenced = FENCED_SETTINGS.flatMap((setting) => ['-c', setting]);
  // Marked like every process Sylvan starts: killed when Sylvan exits, even by kill -9 (the orphan watchdog).
  installExitHook();
  const env = { ...(options.env ?? isolatedGitEnvironment()), [MARK_VARIABLE]: newProcessMark('checkpoint-git') };
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...fenced, ...args],
      { cwd: options.cwd, env, encoding: 'buffer', maxBuffer: MAX_OUTPUT_BYTES, timeout: options.timeoutMs ?? GIT_TIMEOUT_MS, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const errorText = stderr.toString('utf8');
        if (error) {
          const timedOut = (error as { killed?: boolean }).killed === true && (error as { signal?: string }).signal === 'SIGKILL';
          const seconds = Math.round((options.timeoutMs ?? GIT_TIMEOUT_MS) / 1000);
          const reason = timedOut ? `it did not finish in ${seconds} s (a file it reads may be a FIFO or a device) and was stopped` : errorText.trim().split('\n')[0] || error.message;
          reject(new Error(`git ${subcommand(args)} failed: ${reason}`, { cause: error }));
          return;
        }
        resolve({ stdout, stderr: errorText });
      },
    );
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}

/** The git command among the arguments, past the options that take a value (`--git-dir <path>`). */
function subcommand(args: readonly string[]): string {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--git-dir' || arg === '--work-tree' || arg === '-c' || arg === '-C') index++;
    else if (!arg.startsWith('-')) return arg;
  }
  return '';
}
