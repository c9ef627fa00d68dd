import { streamText } from 'ai';
import type { ModelMessage } from 'ai';
import { debugDetail, describeModelError } from './describe-error.ts';
import { emptyUsage, type AgentEvent, type StopReason, type TokenUsage } from './events.ts';
import type { RepeatedCallDetector } from './guards.ts';
import type { ApprovalRequest, TurnOptions } from './run-turn.ts';
import { isTruncatedCall } from '../providers/truncated-calls-middleware.ts';
import { emptyStepMessage } from './empty-step.ts';

/** What one step left behind, for the loop to decide what comes next. */
export interface StepOutcome {
  failed?: { reason: StopReason; message: string; debug?: string };
  usage: TokenUsage;
  finishReason: string;
  toolCalls: number;
  /** Calls waiting for a yes; `allowed` ones were allowed already and only run between steps. */
  pendingApprovals: { approvalId: string; request: ApprovalRequest; allowed?: boolean }[];
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

/** What the model reads for a call written when its answer hit the output limit. */
const truncatedCallResult = (toolName: string): string =>
  `Not run: your answer hit the output limit (finish reason: length) while writing this ${toolName} call, so its arguments may be cut off. Re-issue the call complete, with shorter arguments if you can.`;

/**
 * The SDK answers a cut-off call whose JSON does not parse with its own parse error; the model
 * is better served by being told why, the same way as a cut-off call that did parse.
 */
function withTruncatedResults(message: ModelMessage, truncated: ReadonlySet<string>): ModelMessage {
  if (truncated.size === 0 || message.role !== 'tool') return message;
  return {
    ...message,
    content: message.content.map((part) =>
      part.type === 'tool-result' && truncated.has(part.toolCallId)
        ? { ...part, output: { type: 'error-text' as const, value: truncatedCallResult(part.toolName) } }
        : part,
    ),
  };
}

const isTimeout = (value: unknown): boolean =>
  value instanceof Error ? value.name === 'TimeoutError' || /timeout/i.test(value.message) : /timeout/i.test(String(value));

/**
 * One model step: one `streamText`, its full event stream translated into Sylvan's events, and
 * the step's messages appended to the history only when the step finished whole. Never throws.
 */
export async function* runStep(
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
  // Only parts that arrive before the step starts (answers to approvals) need these: built on first
  // use, so a normal step does no work that grows with the history.
  let knownCallIds: Set<string> | undefined;
  let answeredCallIds: Set<string> | undefined;
  const isKnownCall = (id: string) =>
    (knownCallIds ??= new Set(
      messages.flatMap((message) =>
        message.role === 'assistant' && Array.isArray(message.content)
          ? message.content.filter((part) => part.type === 'tool-call').map((part) => part.toolCallId)
          : [],
      ),
    )).has(id);
  const isAnsweredCall = (id: string) =>
    (answeredCallIds ??= new Set(
      messages.flatMap((message) =>
        message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result').map((part) => part.toolCallId) : [],
      ),
    )).has(id);
  const lateResultParts: Extract<ModelMessage, { role: 'tool' }>['content'] = [];
  const denialReasons = new Map<string, string>();
  const allowedBetweenSteps = new Set<string>();
  let streamError: unknown;
  let abortReason: unknown;
  let stepStarted = false;
  let text = '';
  const truncatedCallIds = new Set<string>();
  let reasoning = '';

  const result = streamText({
    model: options.model,
    tools: options.tools,
    instructions: options.instructions,
    messages,
    maxRetries: options.maxRetries,
    abortSignal: options.abortSignal,
    timeout: { stepMs: options.stepTimeoutMs, toolMs: options.toolTimeoutMs, tools: options.toolTimeoutOverrides },
    toolApproval: ({ toolCall }) => {
      if (isTruncatedCall(toolCall)) return { type: 'denied', reason: truncatedCallResult(toolCall.toolName) };
      if (toolCall.invalid) return undefined;
      if (detector.record(toolCall.toolName, toolCall.input)) {
        return {
          type: 'denied',
          reason: `Not run: this is call number ${options.limits.maxIdenticalCalls} of ${toolCall.toolName} with the same arguments in this turn, so the turn was stopped.`,
        };
      }
      const decision = options.approval.decide(toolCall.toolName, toolCall.input);
      if (decision === 'ask') return 'user-approval';
      if (decision === 'allow') {
        if (!options.runBetweenSteps?.has(toolCall.toolName)) return 'approved';
        allowedBetweenSteps.add(toolCall.toolCallId);
        return 'user-approval';
      }
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
          text += part.text;
          yield { type: 'text-delta', text: part.text };
          break;
        case 'reasoning-delta':
          reasoning += part.text;
          yield { type: 'reasoning-delta', text: part.text };
          break;
        case 'tool-call':
          outcome.toolCalls++;
          if (isTruncatedCall(part)) truncatedCallIds.add(part.toolCallId);
          yield { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
          break;
        case 'tool-result':
          if (!stepStarted && isKnownCall(part.toolCallId)) {
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
          yield {
            type: 'tool-error',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            error: truncatedCallIds.has(part.toolCallId) ? truncatedCallResult(part.toolName) : readableToolError(part.error),
          };
          break;
        case 'tool-approval-request':
          if (part.isAutomatic) break;
          outcome.pendingApprovals.push({
            approvalId: part.approvalId,
            request: { toolCallId: part.toolCall.toolCallId, toolName: part.toolCall.toolName, input: part.toolCall.input },
            ...(allowedBetweenSteps.has(part.toolCall.toolCallId) && { allowed: true }),
          });
          break;
        case 'tool-approval-response':
          if (!part.approved && part.reason) denialReasons.set(part.toolCall.toolCallId, part.reason);
          break;
        case 'tool-output-denied':
          // The SDK repeats an automatic denial of the last step when it starts the next one.
          if (!stepStarted && isAnsweredCall(part.toolCallId)) break;
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

  if (streamError === undefined && abortReason === undefined && text.trim() === '' && outcome.toolCalls === 0) {
    // Never a silent empty turn: say so, and leave the empty answer out of the history.
    outcome.failed = { reason: 'error', message: emptyStepMessage(outcome.finishReason, reasoning) };
    return outcome;
  }
  if (streamError === undefined && abortReason === undefined) {
    try {
      const responseMessages = await result.responseMessages;
      options.conversation.append(...responseMessages.map((message) => withTruncatedResults(message, truncatedCallIds)));
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

