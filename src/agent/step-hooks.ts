import type { ModelMessage, StepResult, ToolApprovalStatus, ToolSet, TypedToolCall } from 'ai';
import { addUsage, type TokenUsage } from './events.ts';
import { guardAfterStep } from './guards.ts';
import type { TurnProgress } from './run-steps.ts';
import type { TurnOptions } from './run-turn.ts';
import { isTruncatedCall } from '../providers/truncated-calls-middleware.ts';
import { truncatedCallResult, withTruncatedResults } from './step-results.ts';

/** The history as one step sends it, and what the user should be told about it. */
export interface Fitted {
  messages: ModelMessage[];
  notice?: string;
}

const usageOf = (usage: StepResult<ToolSet>['usage']): TokenUsage => ({
  inputTokens: usage.inputTokens ?? 0,
  outputTokens: usage.outputTokens ?? 0,
  cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
});

/** A step that neither answered nor called a tool is never kept (see `emptyStepMessage`). */
const answeredOrCalled = (step: StepResult<ToolSet>): boolean =>
  step.content.some((part) => part.type === 'tool-call' || (part.type === 'text' && part.text.trim() !== ''));

/**
 * The SDK's side of a run of steps: the callbacks `streamText` calls while it loops, which run ahead
 * of the parts `runSteps` reads. The SDK calls `onStepEnd` for a step before it emits the step's next
 * part and before it prepares the next step, so the history, the calibration (`onStepUsage`) and the
 * guards are up to date at every step boundary, whatever the reader is doing.
 */
export class StepHooks {
  /** Per step the SDK ended in this run: whether it entered the history. */
  readonly kept: boolean[] = [];
  /** Steps the SDK has prepared that the reader has not announced yet. */
  readonly prepared: Fitted[] = [];
  /** Allowed calls that run between steps (as approved ones do), not inside the model's step. */
  readonly allowedBetweenSteps = new Set<string>();
  /** A bug of ours in a callback: the SDK would swallow it, so the reader throws it after the run. */
  internalError: unknown;
  /** The results of last step's approved calls entered the history (as the first step was prepared). */
  resultsOfApprovedCallsKept = false;

  private readonly stepsBefore: number;
  private usage: TokenUsage;
  private sent: readonly ModelMessage[];
  private errorSeen = false;
  private stop = false;
  private wakeOnPrepared: (() => void) | undefined;
  private wakeOnStepEnd: (() => void) | undefined;

  constructor(
    private readonly options: TurnOptions,
    private readonly progress: TurnProgress,
    first: Fitted,
    private readonly fit: () => Fitted,
  ) {
    this.stepsBefore = progress.steps - 1;
    this.usage = progress.usage;
    this.sent = first.messages;
  }

  /** Resolves when the SDK has prepared another step. */
  nextPrepared(): Promise<'prepared'> {
    return new Promise((resolve) => {
      this.wakeOnPrepared = () => resolve('prepared');
    });
  }

  /** Resolves when `onStepEnd` has run for another step. */
  nextStepEnd(): Promise<void> {
    return new Promise((resolve) => {
      this.wakeOnStepEnd = resolve;
    });
  }

  /** The approval gate and the repeated-call guard, for every call the model makes. */
  readonly toolApproval = ({ toolCall }: { toolCall: TypedToolCall<ToolSet> }): ToolApprovalStatus | undefined => {
    const { options } = this;
    if (isTruncatedCall(toolCall)) return { type: 'denied', reason: truncatedCallResult(toolCall.toolName) };
    if (toolCall.invalid) return undefined;
    if (this.progress.detector.record(toolCall.toolName, toolCall.input)) {
      return {
        type: 'denied',
        reason: `Not run: this is call number ${options.limits.maxIdenticalCalls} of ${toolCall.toolName} with the same arguments in this turn, so the turn was stopped.`,
      };
    }
    const decision = options.approval.decide(toolCall.toolName, toolCall.input);
    if (decision === 'ask') return 'user-approval';
    if (decision === 'allow') {
      if (!options.runBetweenSteps?.has(toolCall.toolName)) return 'approved';
      this.allowedBetweenSteps.add(toolCall.toolCallId);
      return 'user-approval';
    }
    if (decision === 'not-needed') return undefined;
    return { type: 'denied', reason: decision.deny };
  };

  /** Checked by the SDK after a step whose calls all have results. */
  readonly stopWhen = (): boolean => this.stop || this.options.abortSignal.aborted;

  /** Before each step: the first is sent as fitted by the reader; each later one is fitted again from the history. */
  readonly prepareStep = ({ stepNumber, responseMessages }: { stepNumber: number; responseMessages: ModelMessage[] }) => {
    try {
      if (stepNumber === 0) {
        // Results of the calls approved last step: they answer calls already in the history.
        if (responseMessages.length > 0) this.options.conversation.append(...responseMessages);
        this.resultsOfApprovedCallsKept = true;
        return undefined;
      }
      const fitted = this.fit();
      this.sent = fitted.messages;
      this.prepared.push(fitted);
      this.wakeOnPrepared?.();
      return { messages: fitted.messages };
    } catch (error) {
      // Ours, not the model's: the turn ends with an internal error, as it would have before the request.
      this.internalError ??= error;
      throw error;
    }
  };

  /** After each step: it enters the history whole (assistant message and tool results in one append), or not at all. */
  readonly onStepEnd = (step: StepResult<ToolSet>): void => {
    const { options } = this;
    try {
      const usage = usageOf(step.usage);
      this.usage = addUsage(this.usage, usage);
      const whole = !this.errorSeen && !options.abortSignal.aborted && answeredOrCalled(step);
      if (whole) {
        const truncated = new Set<string>();
        for (const part of step.content) if (part.type === 'tool-call' && isTruncatedCall(part)) truncated.add(part.toolCallId);
        options.conversation.append(...step.response.messages.map((message) => withTruncatedResults(message, truncated)));
        options.onStepUsage?.(this.sent, usage);
      }
      this.kept.push(whole);
      const guard = guardAfterStep(options.limits, {
        steps: this.stepsBefore + this.kept.length,
        usage: this.usage,
        wantsAnotherStep: true,
        repeated: this.progress.detector.repeated !== undefined,
      });
      this.stop = !whole || guard !== undefined;
    } catch (error) {
      this.internalError ??= error;
      this.stop = true;
    } finally {
      this.wakeOnStepEnd?.();
    }
  };

  /** The SDK's default prints raw errors to the console; errors arrive as stream parts instead. */
  readonly onError = (): void => {
    // An error part: the step it came in is not kept, and no step follows it.
    this.errorSeen = true;
  };
}
