import type { ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { tool } from 'ai';
import { z } from 'zod';
import { BoundedOutput } from './bounded-output.ts';
import { childEnvironment } from './child-environment.ts';
import { SHELL, spawnCommandGroup, terminateGroup } from './process-group.ts';
import { alwaysCovers } from './command-scope.ts';
import { maskVanished, type CommandSandbox, type Invocation } from '../../sandbox/command-sandbox.ts';
import type { NetworkGrants } from '../../sandbox/network-grants.ts';
import { LatestLines } from './latest-lines.ts';
import { formatCommandResult } from './command-result.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { MAX_TIMEOUT_SECONDS } from './command-timeouts.ts';

export interface RunCommandInput {
  command: string;
  timeout_seconds?: number;
}

export interface RunCommandOptions {
  /** The folder commands run in. */
  workspaceRoot: string;
  /** The live output of a running call, for the user's eyes (the model reads the result). */
  onProgress?: (toolCallId: string, text: string) => void;
  /** The environment commands inherit, before Sylvan's keys are taken out (default `process.env`). */
  environment?: NodeJS.ProcessEnv;
  /** Between SIGTERM and SIGKILL when a command is stopped (default 2 s). */
  graceMs?: number;
  /** The session's sandbox; absent, commands run as they are (the unit tests' default). */
  sandbox?: CommandSandbox;
  /** Every key Sylvan holds: a variable with one of these values is kept from the command, whatever its name. */
  heldKeys?: readonly string[];
  /** Calls the user allowed the network at their approval ("run with network"). */
  networkGrants?: NetworkGrants;
}

const DEFAULT_TIMEOUT_SECONDS = 120;
/** What the model reads of each stream: head and tail, about 8,000 characters for both streams together. */
const STDOUT_HEAD = 3_000;
const STDOUT_TAIL = 3_000;
const STDERR_HEAD = 1_000;
const STDERR_TAIL = 1_000;
const PROGRESS_INTERVAL_MS = 100;
const PROGRESS_LINES = 5;
/** After the shell exits, how long its output pipes may stay open (a background child holding them). */
const DRAIN_MS = 500;

type Ending =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timed-out' }
  | { kind: 'aborted'; reason: unknown }
  | { kind: 'failed'; error: Error };

/**
 * Creates the `run_command` tool: runs a shell command (bash, else /bin/sh) in the workspace with
 * stdin from /dev/null, no terminal, in its own process group, with Sylvan's keys removed from the
 * environment. Returns the exit code and stdout/stderr, each bounded (head and tail kept, the
 * middle cut with a note). At its timeout (default 120 s, at most 600 s) or on interrupt the whole
 * group gets SIGTERM, then SIGKILL after a grace period; any process the command left behind when it
 * exits is stopped too. Approval is asked by the agent loop, using `describeCommand`.
 */
export function createRunCommandTool(options: RunCommandOptions) {
  return tool({
    description:
      'Run a shell command (bash) in the workspace; returns exit code, stdout and stderr. Use it for tests, builds, git and other ' +
      'command-line tools instead of telling the user to run them. The user approves each command. No terminal and empty stdin: ' +
      `pass flags such as --yes or --no-pager. Stops after timeout_seconds (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}); ` +
      'background processes end with it. Long output is cut in the middle. No API keys in its environment.',
    inputSchema: z.object({
      command: z.string().min(1).describe('The command line, e.g. "npm test" or "git status --short".'),
      timeout_seconds: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe(`Seconds before the command is stopped (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS}).`),
    }),
    execute: (input, { abortSignal, toolCallId }) => runCommand(options, input, toolCallId, abortSignal),
  });
}

async function runCommand(
  options: RunCommandOptions,
  input: RunCommandInput,
  toolCallId: string,
  abortSignal: AbortSignal | undefined,
): Promise<string> {
  // Taken before anything else: a call that starts interrupted uses its grant up all the same.
  const network = options.networkGrants?.take(toolCallId, input) ?? false;
  abortSignal?.throwIfAborted();
  const timeoutSeconds = Math.min(input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
  const started = Date.now();
  const wrap = (): Invocation => options.sandbox?.wrap(SHELL, ['-c', input.command], { network }) ?? { file: SHELL, args: ['-c', input.command], env: {}, sandboxed: false };
  let invocation = wrap();
  let run = await runOnce(options, invocation, timeoutSeconds * 1000, toolCallId, abortSignal);
  // Once: a path the sandbox hides vanished before bubblewrap mounted over it, so the command never ran.
  if (run.ending.kind === 'exited' && maskVanished(invocation, run.ending.code, run.stdout.text(), run.stderr.text())) {
    invocation = wrap();
    run = await runOnce(options, invocation, timeoutSeconds * 1000, toolCallId, abortSignal);
  }
  const { ending, stdout, stderr } = run;

  if (ending.kind === 'failed') throw new Error(`could not start the command: ${ending.error.message}`);
  if (ending.kind === 'aborted') {
    const reason = ending.reason;
    throw reason instanceof Error ? reason : new Error('The command was interrupted by the user and stopped.');
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const status =
    ending.kind === 'timed-out'
      ? `timed out after ${timeoutSeconds} s and was stopped (with everything it started); the output so far is below. If it needs longer, call again with a larger timeout_seconds (at most ${MAX_TIMEOUT_SECONDS}).`
      : ending.code !== null
        ? `exit code ${ending.code} (${seconds} s)`
        : `killed by ${ending.signal ?? 'a signal'} (${seconds} s)`;
  return formatCommandResult(status, stdout, stderr);
}

/** One start of the command: its ending and its output, with everything it started stopped. */
async function runOnce(
  options: RunCommandOptions,
  invocation: Invocation,
  timeoutMs: number,
  toolCallId: string,
  abortSignal: AbortSignal | undefined,
): Promise<{ ending: Ending; stdout: BoundedOutput; stderr: BoundedOutput }> {
  const graceMs = options.graceMs ?? 2000;
  const { child, mark } = spawnCommandGroup(invocation.file, invocation.args, options.workspaceRoot, {
    ...childEnvironment(options.environment, options.heldKeys),
    ...invocation.env,
  });
  const stdout = new BoundedOutput(STDOUT_HEAD, STDOUT_TAIL);
  const stderr = new BoundedOutput(STDERR_HEAD, STDERR_TAIL);
  const latest = new LatestLines(PROGRESS_LINES);
  let progressTimer: NodeJS.Timeout | undefined;
  const flushProgress = () => {
    progressTimer = undefined;
    options.onProgress?.(toolCallId, latest.text());
  };
  const onData = (target: BoundedOutput) => {
    // A character split between two chunks must not show as garbage in the live view.
    const decoder = new StringDecoder('utf8');
    return (chunk: Buffer) => {
      target.add(chunk);
      latest.add(decoder.write(chunk));
      if (options.onProgress && progressTimer === undefined) progressTimer = setTimeout(flushProgress, PROGRESS_INTERVAL_MS);
    };
  };
  child.stdout?.on('data', onData(stdout));
  child.stderr?.on('data', onData(stderr));

  const ending = await firstEnding(child, timeoutMs, abortSignal);
  const groupId = child.pid;
  // Whatever ended the call, nothing it started may keep running.
  if (ending.kind === 'exited') await closedWithin(child, DRAIN_MS);
  if (groupId !== undefined) await terminateGroup(groupId, graceMs, mark);
  if (ending.kind !== 'exited') await closedWithin(child, DRAIN_MS);
  if (progressTimer !== undefined) clearTimeout(progressTimer);
  child.stdout?.destroy();
  child.stderr?.destroy();
  return { ending, stdout, stderr };
}

/** The first of: the shell exits, it cannot start, the timeout, the user's interrupt. */
function firstEnding(child: ChildProcess, timeoutMs: number, abortSignal: AbortSignal | undefined): Promise<Ending> {
  return new Promise<Ending>((resolve) => {
    const finish = (ending: Ending) => {
      clearTimeout(timer);
      abortSignal?.removeEventListener('abort', onAbort);
      resolve(ending);
    };
    const timer = setTimeout(() => finish({ kind: 'timed-out' }), timeoutMs);
    const onAbort = () => finish({ kind: 'aborted', reason: abortSignal?.reason });
    if (abortSignal?.aborted) return onAbort();
    abortSignal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => finish({ kind: 'failed', error }));
    child.once('exit', (code, signal) => finish({ kind: 'exited', code, signal }));
  });
}

/** Waits for the output pipes to close, at most `withinMs`: a background child may hold them open. */
function closedWithin(child: ChildProcess, withinMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.stdout?.closed !== false && child.stderr?.closed !== false) return resolve();
    const timer = setTimeout(resolve, withinMs);
    child.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * What the user sees before approving: the exact command (control characters made visible by the
 * UI's sanitiser), the folder it runs in, how it is fenced (`fence`, e.g. "sandboxed, no network")
 * and what an "always" answer would cover. Never throws.
 */
export function describeCommand(workspaceRoot: string, input: RunCommandInput, fence?: string): { summary: string; preview: string } {
  const timeout = Math.min(input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
  const command = typeof input.command === 'string' ? input.command : '';
  return {
    summary: `run_command ${sanitizeLine(command)}`,
    preview: [
      `$ ${sanitizeLine(command)}`,
      `in ${sanitizeLine(workspaceRoot)} · stops after ${timeout} s${fence ? ` · ${fence}` : ''}`,
      `"always" covers: ${sanitizeLine(alwaysCovers(command, workspaceRoot))}`,
    ].join('\n'),
  };
}
