import type { ModelMessage } from 'ai';
import type { AgentEvent } from './events.ts';
import type { CircuitBreaker } from './circuit-breaker.ts';
import type { RepeatedCallDetector } from './guards.ts';
import { outputText, withNote } from './result-notes.ts';
import type { StepCall } from './step-events.ts';
import { readableToolError, truncatedCallResult } from './step-results.ts';
import { executeToolCall, modelOutputOf, type ExecutionOutcome, type ToolResultOutput } from './tool-execution.ts';
import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest, TurnOptions } from './turn-options.ts';

export type ToolResultPart = Extract<Extract<ModelMessage, { role: 'tool' }>['content'][number], { type: 'tool-result' }>;

/** What a round left: one result per call it settled, in call order, and whether the user stopped it. */
export interface RoundOutcome {
  results: ToolResultPart[];
  interrupted: boolean;
}

/** How a call is settled before anything runs. */
type Verdict = { run: true } | { ask: true } | { denied: string };

/** What watches a turn's calls for repetition: identical calls, and the circuit breaker's loop patterns. */
export interface RepetitionWatch {
  detector: RepeatedCallDetector;
  breaker: CircuitBreaker;
}

/**
 * The calls of one step, after its model request: each is judged (cut off, repeated, the approval
 * policy), asked about when the policy says so, and run; a run of calls that need no question runs
 * concurrently. Yields a `tool-result`, `tool-error` or `tool-denied` event per call, in call order.
 * Never throws; on the user's interrupt it stops and returns the results it has.
 */
export async function* approvalRound(
  options: TurnOptions,
  calls: readonly StepCall[],
  watch: RepetitionWatch,
  sent: ModelMessage[],
): AsyncGenerator<AgentEvent, RoundOutcome> {
  const outcome: RoundOutcome = { results: [], interrupted: false };
  /** The circuit breaker's notes for the model, by call: added to the call's result. */
  const notes = new Map<string, string>();
  // The step's calls are judged for loops together, so a batch of alike calls in one step is no loop.
  const loops = watch.breaker.judgeStep(calls.filter((call) => !call.invalid && !call.providerExecuted && !call.truncated));
  let running: { call: StepCall; execution: Promise<ExecutionOutcome> }[] = [];

  const run = (call: StepCall) => {
    const timeoutMs = options.toolTimeoutOf?.(call.toolName) ?? options.toolTimeoutMs;
    const tool = options.tools[call.toolName];
    const execution = tool
      ? executeToolCall(tool, call, { signal: options.abortSignal, timeoutMs, messages: sent })
      : Promise.resolve<ExecutionOutcome>({ ok: false, error: new Error(`There is no tool named ${call.toolName}.`) });
    running.push({ call, execution });
  };

  async function* settleRunning(): AsyncGenerator<AgentEvent> {
    for (const { call, execution } of running.splice(0)) {
      const executed = await execution;
      const output = await modelOutputOf(options.tools[call.toolName], call, executed);
      const failed = !executed.ok || options.resultFailed?.(call.toolName, executed.output) === true;
      const note = [notes.get(call.toolCallId), watch.breaker.afterCall(call.toolName, failed, outputText(output))].filter(Boolean).join('\n');
      outcome.results.push(resultPart(call, note === '' ? output : withNote(output, note)));
      yield executed.ok
        ? { type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: executed.output }
        : {
            type: 'tool-error',
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            error: readableToolError(executed.error),
            ...(executed.stopped && { stopped: executed.stopped }),
          };
    }
  }

  function deny(call: StepCall, reason: string | undefined): AgentEvent {
    outcome.results.push(resultPart(call, { type: 'execution-denied', ...(reason === undefined ? {} : { reason }) }));
    return { type: 'tool-denied', toolCallId: call.toolCallId, toolName: call.toolName, reason };
  }

  for (const call of calls) {
    // The SDK answered an invalid call already; a provider-run call has its result in the stream.
    if (call.invalid || call.providerExecuted) continue;
    const verdict = judge(options, call, watch, loops.get(call.toolCallId), notes);
    if ('denied' in verdict) {
      yield deny(call, verdict.denied);
    } else if ('run' in verdict) {
      run(call);
    } else {
      // A question waits until the calls before it have run, so what the user is asked about is current.
      yield* settleRunning();
      const request: ApprovalRequest = { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input };
      const decision = await askWithAbort(options.approval, request, options.abortSignal);
      if (decision === undefined) {
        outcome.interrupted = true;
        return outcome;
      }
      if (!decision.approved) yield deny(call, decision.reason);
      else run(call);
    }
    if (options.abortSignal.aborted) break;
  }
  yield* settleRunning();
  outcome.interrupted = options.abortSignal.aborted;
  return outcome;
}

function judge(options: TurnOptions, call: StepCall, { detector }: RepetitionWatch, loop: { stop: string } | { note: string } | undefined, notes: Map<string, string>): Verdict {
  if (call.truncated) return { denied: truncatedCallResult(call.toolName) };
  if (loop && 'stop' in loop) return { denied: loop.stop };
  if (loop) notes.set(call.toolCallId, loop.note);
  if (detector.record(call.toolName, call.input)) {
    return {
      denied: `Not run: this is call number ${options.limits.maxIdenticalCalls} of ${call.toolName} with the same arguments in this turn, so the turn was stopped.`,
    };
  }
  const decision = options.approval.decide(call.toolName, call.input);
  if (decision === 'ask') return { ask: true };
  if (decision === 'allow' || decision === 'not-needed') return { run: true };
  return { denied: decision.deny };
}

const resultPart = (call: StepCall, output: ToolResultOutput): ToolResultPart => ({
  type: 'tool-result',
  toolCallId: call.toolCallId,
  toolName: call.toolName,
  output,
});

/** The user's answer, or undefined when the turn is interrupted first. */
async function askWithAbort(policy: ApprovalPolicy, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | undefined> {
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
