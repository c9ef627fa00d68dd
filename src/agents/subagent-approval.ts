import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest } from '../agent/loop/turn-options.ts';
import { TASK_TOOL_NAME } from './agent-tools.ts';

/**
 * Questions from subagents running side by side, one at a time: the user answers one menu, then
 * the next is shown.
 */
export class QuestionQueue {
  private last: Promise<unknown> = Promise.resolve();

  ask(policy: ApprovalPolicy, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const turn = this.last.then(() =>
      signal.aborted ? { approved: false, reason: 'The user interrupted.' } : policy.ask(request, signal),
    );
    this.last = turn.catch(() => undefined);
    return turn;
  }
}

/**
 * A subagent's approval: the parent's policy (its mode, settings and "always" answers, which the
 * two share), asked in the subagent's name, for the tools the agent was given and no other. A call
 * of any other tool is refused with words for the subagent's model.
 */
export function subagentApproval(parent: ApprovalPolicy, agent: string, allowed: ReadonlySet<string>, questions: QuestionQueue): ApprovalPolicy {
  return {
    decide(toolName, input) {
      if (toolName === TASK_TOOL_NAME) return { deny: 'A subagent cannot start subagents: do the work yourself with the tools you have.' };
      if (!allowed.has(toolName)) return { deny: `${toolName} is not one of the tools of the ${agent} agent; use the tools you were given.` };
      return parent.decide(toolName, input);
    },
    ask: (request, signal) => questions.ask(parent, { ...request, agent }, signal),
  };
}
