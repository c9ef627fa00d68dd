import { streamText } from 'ai';
import type { LanguageModel, ModelMessage, ToolApprovalResponse, ToolSet } from 'ai';
import type { Conversation } from './conversation.ts';
import { repairHistory } from './context-window.ts';
import { debugDetail, describeModelError, type ProviderContext } from './describe-error.ts';
import { addUsage, emptyUsage, type AgentEvent, type StopReason, type TokenUsage } from './events.ts';
import { canonicalJson, guardAfterStep, RepeatedCallDetector, type TurnLimits } from './guards.ts';

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
  maxRetries: number;
  /** The user's interrupt (Ctrl-C). */
  abortSignal: AbortSignal;
  approval: ApprovalPolicy;
  provider: ProviderContext;
  fitMessages?: FitMessages;
  /** Called with the provider-reported input tokens of each step and the messages that produced them. */
  onStepUsage?: (sent: readonly ModelMessage[], usage: TokenUsage) => void;
}

interface StepOutcome {
  failed?: { reason: StopReason; message: string; debug?: string };
  usage: TokenUsage;
  finishReason: string;
  toolCalls: number;
  pendingApprovals: { approvalId: string; request: ApprovalRequest }[];
  /** Results of calls that were already in the history (approved last step), seen before a failure. */
  lateResults: ModelMessage | undefined;
}

/** A tool error as the user reads it: the SDK's error-class prefixes and schema dumps left out. */
function readableToolError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const invalid = /Invalid input for tool (\w+)/.exec(text);
  const issuesStart = text.indexOf('Error message: [');
  if (invalid && issuesStart >= 0) {
    try {
      const issues = JSON.parse(text.slice(issuesStart + 'Error message: '.length)) as { path?: unknown[]; message?: string }[];
      const first = issues[0];
      if (first?.message) {
        const path = Array.isArray(first.path) && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
        return `invalid arguments for ${invalid[1]}: ${path}${first.message}`;
      }
    } catch {
      // Not the zod shape we know: fall through to the plain first line.
    }
  }
  const plain = text.replace(/\bAI_\w+Error: /g, '');
  return plain.split('\n')[0] ?? plain;
}

const isTimeout = (value: unknown): boolean =>
  value instanceof Error ? value.name === 'TimeoutError' || /timeout/i.test(value.message) : /timeout/i.test(String(value));

/**
 * Runs one user turn: one `streamText` per step, until a step ends without tool calls or a guard
 * stops it. Yields events and never throws; every failure arrives as a `turn-end` with a stop
 * reason and one line for the user. Only whole steps enter the history, and whatever happens the
 * history ends valid: every tool call has a result, the user's message is kept.
 */
export async function* runTurn(options: TurnOptions): AsyncGenerator<AgentEvent, StopReason> {
  const { conversation, limits } = options;
  conversation.append({ role: 'user', content: options.userMessage });

  const detector = new RepeatedCallDetector(limits.maxIdenticalCalls);
  let usage = emptyUsage();
  let steps = 0;

  const finish = (reason: StopReason, message?: string, debug?: string): AgentEvent => {
    if (reason !== 'completed') {
      const repaired = repairHistory([...conversation.messages]);
      conversation.replace(repaired);
    }
    return { type: 'turn-end', stopReason: reason, usage, steps, message, debug };
  };

  try {
    while (true) {
      if (options.abortSignal.aborted) {
        yield finish('aborted', 'Interrupted.');
        return 'aborted';
      }
      steps++;
      yield { type: 'step-start', step: steps };

      const fitted = options.fitMessages?.(conversation.messages) ?? { messages: [...conversation.messages] };
      if (fitted.notice) yield { type: 'notice', message: fitted.notice };

      const outcome: StepOutcome = yield* runStep(options, fitted.messages, detector);
      usage = addUsage(usage, outcome.usage);

      if (outcome.failed) {
        if (outcome.lateResults) conversation.append(outcome.lateResults);
        yield finish(outcome.failed.reason, outcome.failed.message, outcome.failed.debug);
        return outcome.failed.reason;
      }
      options.onStepUsage?.(fitted.messages, outcome.usage);
      yield { type: 'step-end', step: steps, usage: outcome.usage, finishReason: outcome.finishReason };

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
          const decision = await askWithAbort(options.approval, pending.request, options.abortSignal);
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

async function* runStep(
  options: TurnOptions,
  messages: ModelMessage[],
  detector: RepeatedCallDetector,
): AsyncGenerator<AgentEvent, StepOutcome> {
  const outcome: StepOutcome = {
    usage: emptyUsage(),
    finishReason: 'unknown',
    toolCalls: 0,
    pendingApprovals: [],
    lateResults: undefined,
  };
  const knownCallIds = new Set(
    messages.flatMap((message) =>
      message.role === 'assistant' && Array.isArray(message.content)
        ? message.content.filter((part) => part.type === 'tool-call').map((part) => part.toolCallId)
        : [],
    ),
  );
  const answeredCallIds = new Set(
    messages.flatMap((message) =>
      message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result').map((part) => part.toolCallId) : [],
    ),
  );
  const lateResultParts: Extract<ModelMessage, { role: 'tool' }>['content'] = [];
  const denialReasons = new Map<string, string>();
  let streamError: unknown;
  let abortReason: unknown;
  let stepStarted = false;

  const result = streamText({
    model: options.model,
    tools: options.tools,
    instructions: options.instructions,
    messages,
    maxRetries: options.maxRetries,
    abortSignal: options.abortSignal,
    timeout: { stepMs: options.stepTimeoutMs, toolMs: options.toolTimeoutMs },
    toolApproval: ({ toolCall }) => {
      if (toolCall.invalid) return undefined;
      if (detector.record(toolCall.toolName, toolCall.input)) {
        return {
          type: 'denied',
          reason: `Not run: this is call number ${options.limits.maxIdenticalCalls} of ${toolCall.toolName} with the same arguments in this turn, so the turn was stopped.`,
        };
      }
      const decision = options.approval.decide(toolCall.toolName, toolCall.input);
      if (decision === 'ask') return 'user-approval';
      if (decision === 'allow') return 'approved';
      if (decision === 'not-needed') return undefined;
      return { type: 'denied', reason: decision.deny };
    },
    // The SDK's default prints raw errors to the console; errors arrive as stream parts instead.
    onError: () => {},
  });

  try {
    for await (const part of result.stream) {
      switch (part.type) {
        case 'start-step':
          stepStarted = true;
          break;
        case 'text-delta':
          yield { type: 'text-delta', text: part.text };
          break;
        case 'reasoning-delta':
          yield { type: 'reasoning-delta', text: part.text };
          break;
        case 'tool-call':
          outcome.toolCalls++;
          yield { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
          break;
        case 'tool-result':
          if (!stepStarted && knownCallIds.has(part.toolCallId)) {
            lateResultParts.push({
              type: 'tool-result',
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              output:
                typeof part.output === 'string'
                  ? { type: 'text', value: part.output }
                  : { type: 'json', value: (part.output ?? null) as never },
            });
          }
          yield { type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, output: part.output };
          break;
        case 'tool-error':
          yield { type: 'tool-error', toolCallId: part.toolCallId, toolName: part.toolName, error: readableToolError(part.error) };
          break;
        case 'tool-approval-request':
          if (part.isAutomatic) break;
          outcome.pendingApprovals.push({
            approvalId: part.approvalId,
            request: { toolCallId: part.toolCall.toolCallId, toolName: part.toolCall.toolName, input: part.toolCall.input },
          });
          break;
        case 'tool-approval-response':
          if (!part.approved && part.reason) denialReasons.set(part.toolCall.toolCallId, part.reason);
          break;
        case 'tool-output-denied':
          // The SDK repeats an automatic denial of the last step when it starts the next one.
          if (!stepStarted && answeredCallIds.has(part.toolCallId)) break;
          yield {
            type: 'tool-denied',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            reason: denialReasons.get(part.toolCallId),
          };
          break;
        case 'finish-step':
          outcome.finishReason = part.finishReason;
          outcome.usage = {
            inputTokens: part.usage.inputTokens ?? 0,
            outputTokens: part.usage.outputTokens ?? 0,
            cachedInputTokens: part.usage.inputTokenDetails?.cacheReadTokens ?? 0,
          };
          break;
        case 'error':
          streamError ??= part.error;
          break;
        case 'abort':
          abortReason = part.reason ?? 'aborted';
          break;
        default:
          break;
      }
    }
  } catch (error) {
    streamError ??= error;
  }

  if (streamError === undefined && abortReason === undefined) {
    try {
      const responseMessages = await result.responseMessages;
      options.conversation.append(...responseMessages);
      return outcome;
    } catch (error) {
      streamError = error;
    }
  }

  if (lateResultParts.length > 0) outcome.lateResults = { role: 'tool', content: lateResultParts };
  outcome.failed = classifyFailure(options, streamError, abortReason);
  return outcome;
}

function classifyFailure(
  options: TurnOptions,
  streamError: unknown,
  abortReason: unknown,
): NonNullable<StepOutcome['failed']> {
  if (options.abortSignal.aborted) return { reason: 'aborted', message: 'Interrupted.' };
  if (isTimeout(abortReason) || isTimeout(streamError)) {
    const seconds = Math.round(options.stepTimeoutMs / 1000);
    return {
      reason: 'timeout',
      message: `No complete answer from ${options.provider.label} within ${seconds} s (--timeout). Try again, or raise --timeout / SYLVAN_TIMEOUT.`,
    };
  }
  const error = streamError ?? abortReason;
  return { reason: 'error', message: describeModelError(error, options.provider), debug: debugDetail(error) };
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
