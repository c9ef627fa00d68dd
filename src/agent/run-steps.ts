import { streamText, type ModelMessage, type StepResult, type ToolSet } from 'ai';
import { debugDetail, describeModelError } from './describe-error.ts';
import { addUsage, type AgentEvent, type StopReason, type TokenUsage } from './events.ts';
import { guardAfterStep, type RepeatedCallDetector } from './guards.ts';
import type { ApprovalRequest, TurnOptions } from './run-turn.ts';
import { isTruncatedCall } from '../providers/truncated-calls-middleware.ts';
import { emptyStepMessage } from './empty-step.ts';
import { readableToolError, truncatedCallResult, withTruncatedResults } from './step-results.ts';

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

interface Fitted {
  messages: ModelMessage[];
  notice?: string;
}

const isTimeout = (value: unknown): boolean =>
  value instanceof Error ? value.name === 'TimeoutError' || /timeout/i.test(value.message) : /timeout/i.test(String(value));

const usageOf = (usage: StepResult<ToolSet>['usage']): TokenUsage => ({
  inputTokens: usage.inputTokens ?? 0,
  outputTokens: usage.outputTokens ?? 0,
  cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
});

/** A step that neither answered nor called a tool is never kept (see `emptyStepMessage`). */
const answeredOrCalled = (step: StepResult<ToolSet>): boolean =>
  step.content.some((part) => part.type === 'tool-call' || (part.type === 'text' && part.text.trim() !== ''));

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
  const { conversation, limits } = options;
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

  // The SDK's side, ahead of the parts read below: what it has prepared, finished and been told.
  const stepsBefore = progress.steps - 1;
  let usageOfEndedSteps = progress.usage;
  /** Per step the SDK ended in this run: whether it entered the history. */
  const kept: boolean[] = [];
  let sent = messages;
  let errorSeen = false;
  let internalError: unknown;
  let stop = false;
  let resultsOfApprovedCallsKept = false;
  const prepared: Fitted[] = [];
  let wakeOnPrepared: (() => void) | undefined;
  let wakeOnStepEnd: (() => void) | undefined;

  /** After each step, before the SDK prepares the next: the step enters the history whole, or not at all. */
  const onStepEnd = (step: StepResult<ToolSet>): void => {
    try {
      const usage = usageOf(step.usage);
      usageOfEndedSteps = addUsage(usageOfEndedSteps, usage);
      const whole = !errorSeen && !options.abortSignal.aborted && answeredOrCalled(step);
      if (whole) {
        const truncated = new Set<string>();
        for (const part of step.content) if (part.type === 'tool-call' && isTruncatedCall(part)) truncated.add(part.toolCallId);
        conversation.append(...step.response.messages.map((message) => withTruncatedResults(message, truncated)));
        options.onStepUsage?.(sent, usage);
      }
      kept.push(whole);
      const guard = guardAfterStep(limits, {
        steps: stepsBefore + kept.length,
        usage: usageOfEndedSteps,
        wantsAnotherStep: true,
        repeated: progress.detector.repeated !== undefined,
      });
      stop = !whole || guard !== undefined;
    } catch (error) {
      internalError ??= error;
      stop = true;
    } finally {
      wakeOnStepEnd?.();
    }
  };

  /** Before each step: the first is sent as fitted above; each later one is fitted again from the history. */
  const prepareStep = ({ stepNumber, responseMessages }: { stepNumber: number; responseMessages: ModelMessage[] }) => {
    try {
      if (stepNumber === 0) {
        // Results of the calls approved last step: they answer calls already in the history.
        if (responseMessages.length > 0) conversation.append(...responseMessages);
        resultsOfApprovedCallsKept = true;
        return undefined;
      }
      const fitted = fit();
      sent = fitted.messages;
      prepared.push(fitted);
      wakeOnPrepared?.();
      return { messages: fitted.messages };
    } catch (error) {
      // Ours, not the model's: the turn ends with an internal error, as it would have before the request.
      internalError ??= error;
      throw error;
    }
  };

  const lateResultParts: Extract<ModelMessage, { role: 'tool' }>['content'] = [];
  const denialReasons = new Map<string, string>();
  const allowedBetweenSteps = new Set<string>();
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
    toolApproval: ({ toolCall }) => {
      if (isTruncatedCall(toolCall)) return { type: 'denied', reason: truncatedCallResult(toolCall.toolName) };
      if (toolCall.invalid) return undefined;
      if (progress.detector.record(toolCall.toolName, toolCall.input)) {
        return {
          type: 'denied',
          reason: `Not run: this is call number ${limits.maxIdenticalCalls} of ${toolCall.toolName} with the same arguments in this turn, so the turn was stopped.`,
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
    stopWhen: () => stop || options.abortSignal.aborted,
    prepareStep,
    onStepEnd,
    // The SDK's default prints raw errors to the console; errors arrive as stream parts instead.
    onError: () => {
      errorSeen = true;
    },
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
      const next = prepared.shift();
      if (next) {
        yield* announce(next);
        continue;
      }
      pending ??= parts.next();
      let read: Awaited<typeof pending> | 'prepared';
      if (betweenSteps) {
        const woken = new Promise<'prepared'>((resolve) => {
          wakeOnPrepared = () => resolve('prepared');
        });
        read = await Promise.race([pending, woken]);
        wakeOnPrepared = undefined;
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
            ...(allowedBetweenSteps.has(part.toolCall.toolCallId) && { allowed: true }),
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
          if (kept.length < finishedSteps) {
            pending ??= parts.next();
            await Promise.race([
              pending,
              new Promise<void>((resolve) => {
                wakeOnStepEnd = resolve;
              }),
            ]);
            wakeOnStepEnd = undefined;
          }
          if (kept[finishedSteps - 1] === true && streamError === undefined && abortReason === undefined) {
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
  for (const fitted of prepared.splice(0)) yield* announce(fitted);

  if (internalError !== undefined) throw internalError;
  if (streamError === undefined && abortReason === undefined) {
    // Never a silent empty turn: say so; the empty answer was left out of the history.
    if (!isWhole(text, outcome.toolCalls)) outcome.failed = { reason: 'error', message: emptyStepMessage(outcome.finishReason, reasoning) };
    return outcome;
  }
  // Unless the SDK's own copy of them entered the history already (as the first step was prepared).
  if (lateResultParts.length > 0 && !resultsOfApprovedCallsKept) outcome.lateResults = { role: 'tool', content: lateResultParts };
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
