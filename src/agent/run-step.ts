import { streamText } from 'ai';
import type { ModelMessage } from 'ai';
import { debugDetail, describeModelError } from './describe-error.ts';
import { emptyUsage, type AgentEvent, type StopReason, type TokenUsage } from './events.ts';
import type { RepeatedCallDetector } from './guards.ts';
import type { ApprovalRequest, TurnOptions } from './run-turn.ts';

/** What one step left behind, for the loop to decide what comes next. */
export interface StepOutcome {
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

