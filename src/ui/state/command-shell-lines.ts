import type { ApprovalPolicy } from '../../agent/loop/turn-options.ts';
import type { ShellLines } from '../../runtime/runtime.ts';
import type { ApprovalMode } from '../../tools/approval-mode.ts';
import { runCommandSpec } from '../../tools/shell/run-command-spec.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

/** What running a custom command's `` !`…` `` lines needs: the approval the model's calls get, and the runtime's shell. */
export interface ShellLineContext {
  /** The policy a turn would use now: its mode, "always" answers, `permissions.allow` and --yes apply as to a model's call. */
  policy: ApprovalPolicy;
  runtime: Pick<ShellLines, 'runShellLine'>;
  mode: ApprovalMode;
  /** Why no one can be asked here (print mode, a piped REPL), and what to do: shown when a command is denied. */
  cannotAsk: string;
  /** Runs work that Ctrl-C stops (the question, the command). */
  interruptible: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>;
  /** A live status line while a command runs (a terminal only). */
  status?: (label: string) => () => void;
  /** One line for the user, styled by the caller. */
  tell: (line: string) => void;
  /** The command being run, e.g. `/review`: the checkpoint turn its shell lines make. */
  label: string;
}

let lineCount = 0;

/**
 * Runs each `` !`command` `` line through run_command's approval, exactly as a model's call would
 * be decided (`decide`, then `ask`), and then through the runtime's run_command: a project's
 * command file is text the user chose to run, so it runs nothing unapproved. A command denied,
 * refused or that cannot start ends the custom command with the reason; one that ran (whatever
 * its exit code) gives its result, exit code first, for the prompt.
 */
export function shellLineRunner(context: ShellLineContext): (command: string) => Promise<{ ok: true; output: string } | { ok: false; reason: string }> {
  let first = true;
  return async (command) => {
    const shown = `!\`${sanitizeLine(command)}\``;
    const input = { command };
    const toolCallId = `command-line-${++lineCount}`;
    const decision = context.policy.decide(runCommandSpec.name, input);
    if (typeof decision === 'object') {
      const why = context.mode === 'plan' ? 'plan mode runs no commands (Shift+Tab or /mode switches it)' : context.cannotAsk;
      return { ok: false, reason: `${shown} was not run: ${why}` };
    }
    if (decision === 'ask') {
      const answer = await context.interruptible((signal) => context.policy.ask({ toolCallId, toolName: runCommandSpec.name, input }, signal));
      if (!answer.approved) return { ok: false, reason: `${shown} was not approved` };
    }
    const stopStatus = context.status?.(`Running ${sanitizeLine(command)}…`) ?? (() => {});
    const ran = await context
      .interruptible((signal) => context.runtime.runShellLine(command, { id: toolCallId, signal, ...(first && { checkpointLabel: context.label }) }))
      .finally(stopStatus);
    first = false;
    if (!ran.ok) return { ok: false, reason: `${shown} did not run: ${sanitizeLine(ran.message)}` };
    context.tell(`ran ${shown}: ${sanitizeLine(ran.output.split('\n')[0] ?? '')}`);
    return { ok: true, output: ran.output };
  };
}
