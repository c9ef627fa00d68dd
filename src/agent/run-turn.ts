import type { LanguageModel, ModelMessage, ToolApprovalResponse, ToolSet } from 'ai';
import type { Conversation } from './conversation.ts';
import { repairHistory } from './context-window.ts';
import { debugDetail, type ProviderContext } from './describe-error.ts';
import { emptyUsage, type AgentEvent, type StopReason, type TokenUsage } from './events.ts';
import { canonicalJson, guardAfterStep, RepeatedCallDetector, type TurnLimits } from './guards.ts';
import { runSteps, type StepsOutcome, type TurnProgress } from './run-steps.ts';

/** A tool call waiting for the user's yes or no. */
export interface ApprovalRequest {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface ApprovalDecision {
  approved: boolean;
  /** Told to the model when the call is denied. */
  reason?: string;
}

/** Who decides about tool calls that change things. The loop asks; the UI answers. */
export interface ApprovalPolicy {
  /** `ask` the user, `allow` without asking, or `deny` with a reason the model reads. */
  decide(toolName: string, input: unknown): 'ask' | 'allow' | { deny: string } | 'not-needed';
  /** Asks the user; resolves with their answer. Must settle when `signal` aborts. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

/** What the step sees of the history: the fitted window, and a notice when it left turns out. */
export type FitMessages = (messages: readonly ModelMessage[]) => { messages: ModelMessage[]; notice?: string };

export interface TurnOptions {
  model: LanguageModel;
  tools: ToolSet;
  instructions: string;
  conversation: Conversation;
  /** The user's words; appended to the history before anything is sent. */
  userMessage: string;
  limits: TurnLimits;
  /** Bounds each model step, including a server that accepts the connection and says nothing. */
  stepTimeoutMs: number;
  /** Bounds each tool execution; a slow tool's result becomes an error the model reads. */
  toolTimeoutMs: number;
  /** Per-tool limits that replace `toolTimeoutMs`, keyed `<toolName>Ms` (a command's own timeout may be longer). */
  toolTimeoutOverrides?: Record<string, number>;
  /**
   * Tools whose allowed calls run between steps, as approved ones do, rather than inside the
   * model's step: a long command is bounded by its own timeout, not by `stepTimeoutMs`.
   */
  runBetweenSteps?: ReadonlySet<string>;
  maxRetries: number;
  /** The user's interrupt (Ctrl-C). */
  abortSignal: AbortSignal;
  approval: ApprovalPolicy;
  provider: ProviderContext;
  fitMessages?: FitMessages;
  /** Called with the provider-reported input tokens of each step and the messages that produced them. */
  onStepUsage?: (sent: readonly ModelMessage[], usage: TokenUsage) => void;
}

/**
 * Runs one user turn: the SDK's step loop (see `runSteps`), started again after each round of
 * approvals, until a step ends without tool calls or a guard stops it. Yields events and never
 * throws; every failure arrives as a `turn-end` with a stop reason and one line for the user. Only whole steps enter the history, and whatever happens the
 * history ends valid: every tool call has a result, the user's message is kept.
 */
export async function* runTurn(options: TurnOptions): AsyncGenerator<AgentEvent, StopReason> {
  const { conversation, limits } = options;
  conversation.append({ role: 'user', content: options.userMessage });

  const progress: TurnProgress = { steps: 0, usage: emptyUsage(), detector: new RepeatedCallDetector(limits.maxIdenticalCalls) };

  /** The last finished step's finish reason (`length` says the answer was cut off). */
  let finishReason: string | undefined;
  const finish = (reason: StopReason, message?: string, debug?: string): AgentEvent => {
    if (reason !== 'completed') {
      const repaired = repairHistory([...conversation.messages]);
      conversation.replace(repaired);
    }
    return { type: 'turn-end', stopReason: reason, usage: progress.usage, steps: progress.steps, ...(finishReason !== undefined && { finishReason }), message, debug };
  };

  try {
    while (true) {
      if (options.abortSignal.aborted) {
        yield finish('aborted', 'Interrupted.');
        return 'aborted';
      }
      // Steps run on until one waits for the user's approval, a guard stops them, or the model answers.
      const outcome: StepsOutcome = yield* runSteps(options, progress);
      if (outcome.finishReason !== 'unknown') finishReason = outcome.finishReason;

      if (outcome.failed) {
        if (outcome.lateResults) conversation.append(outcome.lateResults);
        yield finish(outcome.failed.reason, outcome.failed.message, outcome.failed.debug);
        return outcome.failed.reason;
      }

      const { steps, usage, detector } = progress;
      const wantsAnotherStep = outcome.toolCalls > 0;
      const guard = guardAfterStep(limits, { steps, usage, wantsAnotherStep, repeated: detector.repeated !== undefined });
      if (guard) {
        yield finish(guard, guardMessage(guard, { limits, usage, steps, repeated: detector.repeated }));
        return guard;
      }
      if (!wantsAnotherStep) {
        yield finish('completed');
        return 'completed';
      }

      if (outcome.pendingApprovals.length > 0) {
        const responses: ToolApprovalResponse[] = [];
        for (const pending of outcome.pendingApprovals) {
          const decision = pending.allowed ? { approved: true } : await askWithAbort(options.approval, pending.request, options.abortSignal);
          if (!decision) {
            yield finish('aborted', 'Interrupted.');
            return 'aborted';
          }
          responses.push({
            type: 'tool-approval-response',
            approvalId: pending.approvalId,
            approved: decision.approved,
            reason: decision.reason,
          });
        }
        conversation.append({ role: 'tool', content: responses });
      }
    }
  } catch (error) {
    // A bug of ours, not the model's: still end the turn cleanly with a valid history.
    yield finish('error', `Internal error: ${error instanceof Error ? error.message : String(error)}`, debugDetail(error));
    return 'error';
  }
}

async function askWithAbort(
  policy: ApprovalPolicy,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<ApprovalDecision | undefined> {
  if (signal.aborted) return undefined;
  let onAbort: () => void = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([policy.ask(request, signal), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function guardMessage(
  reason: StopReason,
  state: { limits: TurnLimits; usage: TokenUsage; steps: number; repeated?: { toolName: string; input: unknown } },
): string {
  switch (reason) {
    case 'repeated-call': {
      const call = state.repeated ? `${state.repeated.toolName} ${canonicalJson(state.repeated.input)}` : 'a tool';
      return `Stopped: the model called ${call} ${state.limits.maxIdenticalCalls} times with the same arguments. Rephrase the request or ask for something else.`;
    }
    case 'token-budget': {
      const used = state.usage.inputTokens + state.usage.outputTokens;
      return `Stopped: this turn used ${used.toLocaleString('en-US')} tokens, over the budget of ${state.limits.tokenBudget.toLocaleString('en-US')} (--token-budget / SYLVAN_TOKEN_BUDGET).`;
    }
    case 'max-steps':
      return `Stopped after ${state.steps} steps (--max-steps / SYLVAN_MAX_STEPS) while the model was still calling tools. Say "continue" to let it go on, or raise the limit.`;
    default:
      return `Stopped: ${reason}.`;
  }
}
