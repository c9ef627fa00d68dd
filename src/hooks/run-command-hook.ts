import { childEnvironment } from '../tools/shell/child-environment.ts';
import { SHELL, spawnCommandGroup, terminateGroup } from '../tools/shell/process-group.ts';
import type { HookRun } from './hook-types.ts';

/** What a hook may print that Sylvan reads: past this its output is cut (a hook's JSON is a few lines). */
const MAX_OUTPUT_BYTES = 256 * 1024;
/** SIGTERM first; what is left after this is killed. */
const GRACE_MS = 1_000;

export interface CommandHookOptions {
  command: string;
  /** The event's JSON, written to the hook's stdin. */
  input: string;
  projectDir: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Keys Sylvan holds: a variable holding one is withheld, as from `run_command`. */
  heldKeys: readonly string[];
}

/**
 * Runs one `command` hook in the shell, in the project folder and a process group of its own, with
 * the event's JSON on stdin and `SYLVAN_PROJECT_DIR`/`CLAUDE_PROJECT_DIR` set, in the environment
 * `run_command` gets (no credentials, no `SYLVAN_*`). Past its timeout, or on the user's interrupt,
 * the whole group is stopped. Never throws.
 */
export async function runCommandHook(options: CommandHookOptions): Promise<Pick<HookRun, 'exit' | 'stdout' | 'stderr'>> {
  const env = { ...childEnvironment(process.env, options.heldKeys), SYLVAN_PROJECT_DIR: options.projectDir, CLAUDE_PROJECT_DIR: options.projectDir };
  if (options.signal.aborted) return { exit: 'interrupted', stdout: '', stderr: '' };
  let group;
  try {
    group = spawnCommandGroup(SHELL, ['-c', options.command], options.projectDir, env, 'pipe');
  } catch (error) {
    return { exit: 'failed', stdout: '', stderr: (error as Error).message };
  }
  const { child, mark } = group;
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  // A hook that does not read its stdin closes the pipe: not an error of the hook's.
  child.stdin?.on('error', () => {});
  child.stdin?.end(options.input);

  let ended: 'timed-out' | 'interrupted' | undefined;
  const stop = (why: 'timed-out' | 'interrupted') => {
    if (ended || child.pid === undefined) return;
    ended = why;
    void terminateGroup(child.pid, GRACE_MS, mark);
  };
  const timer = setTimeout(() => stop('timed-out'), options.timeoutMs);
  const onAbort = () => stop('interrupted');
  options.signal.addEventListener('abort', onAbort, { once: true });
  const code = await new Promise<number | 'failed'>((resolve) => {
    child.once('error', () => resolve('failed'));
    child.once('close', (exitCode) => resolve(exitCode ?? 1));
  });
  clearTimeout(timer);
  options.signal.removeEventListener('abort', onAbort);
  // The shell is gone; a child it left behind in the group is not kept either.
  if (child.pid !== undefined) await terminateGroup(child.pid, 0, mark);
  return { exit: ended ?? code, stdout: stdout.text(), stderr: stderr.text() };
}

function collect(stream: NodeJS.ReadableStream | null): { text: () => string } {
  const chunks: Buffer[] = [];
  let size = 0;
  stream?.on('data', (chunk: Buffer) => {
    if (size >= MAX_OUTPUT_BYTES) return;
    chunks.push(chunk.subarray(0, MAX_OUTPUT_BYTES - size));
    size += chunk.length;
  });
  return { text: () => Buffer.concat(chunks).toString('utf8') };
}
