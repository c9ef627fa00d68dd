import { streamText, type ModelMessage } from 'ai';
import { debugDetail, describeModelError } from './describe-error.ts';
import { addUsage, type AgentEvent, type StopReason, type TokenUsage } from './events.ts';
import type { RepeatedCallDetector } from './guards.ts';
import type { ApprovalRequest, TurnOptions } from './run-turn.ts';
import { isTruncatedCall } from '../providers/truncated-calls-middleware.ts';
import { emptyStepMessage } from './empty-step.ts';
import { StepHooks, type Fitted } from './step-hooks.ts';
import { readableToolError, truncatedCallResult } from './step-results.ts';

/** The turn's running totals, shared by its runs of steps. */
export interface TurnProgress {
  /** Steps started (announced with `step-start`). */
  steps: number;
  usage: TokenUsage;
  readonly detector: RepeatedCallDetector;
}

/** What a run of steps left behind, for the turn to decide what comes next. */
export interface StepsOutcome {
  failed?: { reason: StopReason; message: string; debug?: string };
  /** Of the last step. */
  finishReason: string;
  /** Tool calls of the last step. */
  toolCalls: number;
  /** Calls of the last step waiting for a yes; `allowed` ones were allowed already and only run between steps. */
  pendingApprovals: { approvalId: string; request: ApprovalRequest; allowed?: boolean }[];
  /** Results of calls that were already in the history (approved last step), seen before a failure. */
  lateResults: ModelMessage | undefined;
}

const isTimeout = (value: unknown): boolean =>
  value instanceof Error ? value.name === 'TimeoutError' || /timeout/i.test(value.message) : /timeout/i.test(String(value));

/**
 * A run of model steps in one `streamText`: the SDK's own multi-step loop, which goes on while every
 * tool call of a step has its result, and stops at a call waiting for the user's approval, a guard,
 * an error or an interrupt. Sylvan keeps the loop's contract around it:
 * - before each step the history is fitted (`prepareStep`), so the model sees the fitted window;
 * - a step enters the history whole (its assistant message and tool results in one append) when it
 *   ends (`onStepEnd`), before the next one is prepared, and never after an error or an interrupt;
 * - the guards (`guardAfterStep`) are the SDK's stop condition, checked after every step;
 * - the SDK's parts become Sylvan's events, in the order the one-`streamText`-per-step loop gave them.
 * Never throws for the model's or the network's failures; they come back as `failed`.
 */
export async function* runSteps(options: TurnOptions, progress: TurnProgress): AsyncGenerator<AgentEvent, StepsOutcome> {
  const { conversation } = options;
  const fit = (): Fitted => options.fitMessages?.(conversation.messages) ?? { messages: [...conversation.messages] };
  const outcome: StepsOutcome = { finishReason: 'unknown', toolCalls: 0, pendingApprovals: [], lateResults: undefined };

  progress.steps++;
  yield { type: 'step-start', step: progress.steps };
  const first = fit();
  if (first.notice) yield { type: 'notice', message: first.notice };
  const messages = first.messages;

  // Only parts that arrive before the first step starts (answers to approvals) need these: built on
  // first use, so a normal step does no work that grows with the history.
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

  // The SDK's side, ahead of the parts read below: what it has prepared, ended and been told.
  const hooks = new StepHooks(options, progress, first, fit);

  const lateResultParts: Extract<ModelMessage, { role: 'tool' }>['content'] = [];
  const denialReasons = new Map<string, string>();
  const truncatedCallIds = new Set<string>();
  let streamError: unknown;
  let abortReason: unknown;
  let started = false;
  let betweenSteps = false;
  let finishedSteps = 0;
  let text = '';
  let reasoning = '';

  const result = streamText({
    model: options.model,
    tools: options.tools,
    instructions: options.instructions,
    messages,
    maxRetries: options.maxRetries,
    abortSignal: options.abortSignal,
    timeout: { stepMs: options.stepTimeoutMs, toolMs: options.toolTimeoutMs, tools: options.toolTimeoutOverrides },
    toolApproval: hooks.toolApproval,
    stopWhen: hooks.stopWhen,
    prepareStep: hooks.prepareStep,
    onStepEnd: hooks.onStepEnd,
    onError: hooks.onError,
  });

  /** The next step, once the SDK has prepared it: announced as the per-step loop did, before its request. */
  function* announce(fitted: Fitted): Generator<AgentEvent> {
    betweenSteps = false;
    text = '';
    reasoning = '';
    outcome.toolCalls = 0;
    outcome.pendingApprovals = [];
    progress.steps++;
    yield { type: 'step-start', step: progress.steps };
    if (fitted.notice) yield { type: 'notice', message: fitted.notice };
  }

  const parts = result.stream[Symbol.asyncIterator]();
  let pending: ReturnType<typeof parts.next> | undefined;
  let finished = false;
  try {
    while (true) {
      const next = hooks.prepared.shift();
      if (next) {
        yield* announce(next);
        continue;
      }
      pending ??= parts.next();
      let read: Awaited<typeof pending> | 'prepared';
      if (betweenSteps) {
        read = await Promise.race([pending, hooks.nextPrepared()]);
        if (read === 'prepared') continue;
      } else {
        read = await pending;
      }
      pending = undefined;
      if (read.done) {
        finished = true;
        break;
      }
      const part = read.value;
      switch (part.type) {
        case 'start-step':
          started = true;
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
          if (!started && isKnownCall(part.toolCallId)) {
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
            ...(hooks.allowedBetweenSteps.has(part.toolCall.toolCallId) && { allowed: true }),
          });
          break;
        case 'tool-approval-response':
          if (!part.approved && part.reason) denialReasons.set(part.toolCall.toolCallId, part.reason);
          break;
        case 'tool-output-denied':
          // A new streamText repeats the automatic denials of the step before it.
          if (!started && isAnsweredCall(part.toolCallId)) break;
          yield {
            type: 'tool-denied',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            reason: denialReasons.get(part.toolCallId),
          };
          break;
        case 'finish-step': {
          outcome.finishReason = part.finishReason;
          const usage: TokenUsage = {
            inputTokens: part.usage.inputTokens ?? 0,
            outputTokens: part.usage.outputTokens ?? 0,
            cachedInputTokens: part.usage.inputTokenDetails?.cacheReadTokens ?? 0,
          };
          progress.usage = addUsage(progress.usage, usage);
          betweenSteps = true;
          finishedSteps++;
          // The SDK's `onStepEnd` for this step runs before its next part; the step ends for the user once it is in the history.
          if (hooks.kept.length < finishedSteps) {
            pending ??= parts.next();
            await Promise.race([pending, hooks.nextStepEnd()]);
          }
          if (hooks.kept[finishedSteps - 1] === true && streamError === undefined && abortReason === undefined) {
            yield { type: 'step-end', step: progress.steps, usage, finishReason: part.finishReason };
          }
          break;
        }
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
  } finally {
    if (!finished) {
      // A read still waiting would hold the iterator's return until the SDK produced a part.
      if (pending) void pending.then(() => parts.return?.(), () => undefined);
      else await parts.return?.();
    }
  }
  // A step the SDK prepared and then failed to start was still a step begun, as the user is told.
  for (const fitted of hooks.prepared.splice(0)) yield* announce(fitted);

  if (hooks.internalError !== undefined) throw hooks.internalError;
  if (streamError === undefined && abortReason === undefined) {
    // Never a silent empty turn: say so; the empty answer was left out of the history.
    if (!isWhole(text, outcome.toolCalls)) outcome.failed = { reason: 'error', message: emptyStepMessage(outcome.finishReason, reasoning) };
    return outcome;
  }
  // Unless the SDK's own copy of them entered the history already (as the first step was prepared).
  if (lateResultParts.length > 0 && !hooks.resultsOfApprovedCallsKept) outcome.lateResults = { role: 'tool', content: lateResultParts };
  outcome.failed = classifyFailure(options, streamError, abortReason);
  return outcome;
}

const isWhole = (text: string, toolCalls: number): boolean => text.trim() !== '' || toolCalls > 0;

function classifyFailure(
  options: TurnOptions,
  streamError: unknown,
  abortReason: unknown,
): NonNullable<StepsOutcome['failed']> {
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
