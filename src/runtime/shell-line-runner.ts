import type { Tool } from 'ai';
import type { Conversation } from '../agent/context/conversation.ts';
import { redactSecrets } from '../shared/redact-secrets.ts';
import { executeToolCall } from '../agent/loop/tool-execution.ts';
import type { SessionCheckpoints } from '../checkpoints/session-checkpoints.ts';
import { MAX_TIMEOUT_SECONDS } from '../tools/shell/command-timeouts.ts';
import type { NoticeQueue } from './notice-queue.ts';
import type { ShellLineResult, ShellLines, UserCommandResult } from './runtime.ts';

export interface ShellLineRunnerOptions {
  /** The model's own `run_command`: the sandbox, the environment without credentials, the bounded output, every held key scrubbed. */
  runCommand: () => Tool | undefined;
  /** The limit the loop sets on a `run_command` call. */
  loopTimeoutMs: number;
  secrets: readonly string[];
  checkpoints: () => SessionCheckpoints;
  conversation: Conversation;
  notices: NoticeQueue;
}

/** What the user ran, as their own message in the history. */
function userCommandMessage(command: string, result: { ok: true; output: string } | { ok: false; error: string }): string {
  return result.ok ? `I ran \`${command}\`:\n${result.output}` : `I ran \`${command}\`, and it did not finish: ${result.error}`;
}

/**
 * Shell lines the user chose — a `!command` typed at the prompt, a custom command's `` !`…` ``
 * line — run through `run_command` as the loop runs the model's calls: the same limit, the same
 * handling of an interrupt, checkpointed as a turn of their own so /undo reverses them.
 */
export class ShellLineRunner implements ShellLines {
  /** The live output of the user's own commands, by call id; a model's calls report to the turn. */
  private readonly progress = new Map<string, (text: string) => void>();
  private userCommands = 0;

  constructor(private readonly options: ShellLineRunnerOptions) {}

  /** Where `run_command` reports a call's live output: the user's command's own, or undefined for a model's call. */
  progressOf(toolCallId: string): ((text: string) => void) | undefined {
    return this.progress.get(toolCallId);
  }

  runShellLine(command: string, options: { id: string; signal: AbortSignal; checkpointLabel?: string }): Promise<ShellLineResult> {
    return this.run(command, { ...options, commandLines: true });
  }

  async runUserCommand(command: string, signal: AbortSignal, onProgress?: (text: string) => void): Promise<UserCommandResult> {
    // The longest a `!command` may run is run_command's own upper bound (the user can stop it sooner with Ctrl-C).
    const ran = await this.run(command, {
      id: `user-command-${++this.userCommands}`,
      signal,
      checkpointLabel: `!${command}`,
      timeoutSeconds: MAX_TIMEOUT_SECONDS,
      onProgress,
    });
    const result = ran.ok ? ran : { ok: false as const, error: ran.stopped === 'interrupted' ? 'it was stopped (Ctrl-C) before it finished.' : ran.message };
    // The output is scrubbed already; the command line as typed may hold a key too.
    this.options.conversation.append({ role: 'user', content: redactSecrets(userCommandMessage(command, result), this.options.secrets) });
    await this.options.checkpoints().turnStarted();
    return { ...result, notices: this.options.notices.take() };
  }

  private async run(
    command: string,
    options: { id: string; signal: AbortSignal; checkpointLabel?: string; commandLines?: boolean; timeoutSeconds?: number; onProgress?: (text: string) => void },
  ): Promise<ShellLineResult & { stopped?: string }> {
    const { conversation, secrets } = this.options;
    const tool = this.options.runCommand();
    if (!tool) return { ok: false, message: 'run_command is not available.' };
    if (options.checkpointLabel !== undefined) {
      this.options.checkpoints().beginTurn(options.checkpointLabel, conversation.length, options.commandLines ? 'command-lines' : 'command');
    }
    if (options.onProgress) this.progress.set(options.id, options.onProgress);
    const input = options.timeoutSeconds === undefined ? { command } : { command, timeout_seconds: options.timeoutSeconds };
    try {
      const outcome = await executeToolCall(tool, { toolCallId: options.id, input }, { signal: options.signal, timeoutMs: this.options.loopTimeoutMs, messages: [] });
      if (outcome.ok) return { ok: true, output: String(outcome.output) };
      const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      return { ok: false, message: redactSecrets(message, secrets), ...(outcome.stopped && { stopped: outcome.stopped }) };
    } finally {
      this.progress.delete(options.id);
    }
  }
}
