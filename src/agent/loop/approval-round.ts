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

/** How a call is settled before anything runs; `unanswered` when only because nobody can be asked. */
type Verdict = { run: true } | { ask: true } | { denied: string; unanswered?: string };

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
      const hooked = yield* afterToolHooks(options, call, executed, output);
      const failed = !executed.ok || options.resultFailed?.(call.toolName, executed.output) === true;
      const note = [notes.get(call.toolCallId), watch.breaker.afterCall(call.toolName, failed, outputText(output))].filter(Boolean).join('\n');
      outcome.results.push(resultPart(call, note === '' ? hooked : withNote(hooked, note)));
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

  for (const given of calls) {
    // The SDK answered an invalid call already; a provider-run call has its result in the stream.
    if (given.invalid || given.providerExecuted) continue;
    const refused = refusedUnjudged(options, given, watch.detector, loops.get(given.toolCallId), notes);
    if (refused) {
      yield deny(given, refused);
      continue;
    }
    // PreToolUse hooks see the call first; what they say is one more input to the policy.
    const preTool = yield* preToolHooks(options, given);
    if (options.abortSignal.aborted) break;
    if ('denied' in preTool) {
      yield deny(given, preTool.denied);
      continue;
    }
    let call = preTool.call;
    let verdict = judge(options, call, preTool.hook);
    if ('ask' in verdict || ('denied' in verdict && verdict.unanswered)) {
      // PermissionRequest hooks may answer where the user would be asked (or could not be).
      const answer = yield* permissionHooks(options, call);
      if (options.abortSignal.aborted) break;
      if (answer.call) call = answer.call;
      if (answer.verdict) verdict = answer.verdict;
    }
    if ('denied' in verdict) {
      yield deny(call, verdict.denied);
    } else if ('run' in verdict) {
      run(call);
    } else {
      // A question waits until the calls before it have run, so what the user is asked about is current.
      yield* settleRunning();
      options.hooks?.notify(`Sylvan needs your permission to use ${call.toolName}`, 'permission_prompt');
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

/** A call refused before anyone judges it: cut off, stopped by the circuit breaker, or repeated once too often. */
function refusedUnjudged(
  options: TurnOptions,
  call: StepCall,
  detector: RepeatedCallDetector,
  loop: { stop: string } | { note: string } | undefined,
  notes: Map<string, string>,
): string | undefined {
  if (call.truncated) return truncatedCallResult(call.toolName);
  if (loop && 'stop' in loop) return loop.stop;
  if (loop) notes.set(call.toolCallId, loop.note);
  if (detector.record(call.toolName, call.input)) {
    return `Not run: this is call number ${options.limits.maxIdenticalCalls} of ${call.toolName} with the same arguments in this turn, so the turn was stopped.`;
  }
  return undefined;
}

function judge(options: TurnOptions, call: StepCall, hook?: 'allow' | 'ask'): Verdict {
  const decision = options.approval.decide(call.toolName, call.input, hook);
  if (decision === 'ask') return { ask: true };
  if (decision === 'allow' || decision === 'not-needed') return { run: true };
  return decision.unanswered ? { denied: decision.deny, unanswered: decision.deny } : { denied: decision.deny };
}

/** PreToolUse: a denial (the model reads its reason), or the call to judge (its input rewritten) with the hook's word on it. */
async function* preToolHooks(options: TurnOptions, call: StepCall): AsyncGenerator<AgentEvent, { denied: string } | { call: StepCall; hook?: 'allow' | 'ask' }> {
  if (!options.hooks) return { call };
  const answer = await options.hooks.beforeTool(call, options.abortSignal);
  for (const note of answer.notes) yield { type: 'notice', message: note };
  if (answer.decision === 'deny') return { denied: `A PreToolUse hook blocked this call: ${answer.reason ?? 'no reason given'}` };
  const rewritten = answer.updatedInput === undefined ? call : { ...call, input: answer.updatedInput };
  return answer.decision ? { call: rewritten, hook: answer.decision } : { call: rewritten };
}

/** PermissionRequest: a hook's answer for the user, judged again by the policy (plan mode still refuses), or nothing. */
async function* permissionHooks(options: TurnOptions, call: StepCall): AsyncGenerator<AgentEvent, { call?: StepCall; verdict?: Verdict }> {
  if (!options.hooks) return {};
  const answer = await options.hooks.permissionRequest(call, options.abortSignal);
  for (const note of answer.notes) yield { type: 'notice', message: note };
  if (answer.decision === 'deny') return { verdict: { denied: `A PermissionRequest hook refused this call: ${answer.reason ?? 'no reason given'}` } };
  if (answer.decision !== 'allow') return {};
  const rewritten = answer.updatedInput === undefined ? call : { ...call, input: answer.updatedInput };
  return { call: rewritten, verdict: judge(options, rewritten, 'allow') };
}

/** PostToolUse / PostToolUseFailure: what the model reads of the result, with the hooks' context added or the result replaced. */
async function* afterToolHooks(options: TurnOptions, call: StepCall, executed: ExecutionOutcome, output: ToolResultOutput): AsyncGenerator<AgentEvent, ToolResultOutput> {
  if (!options.hooks) return output;
  const outcome = executed.ok ? { ok: true as const, output: executed.output } : { ok: false as const, error: readableToolError(executed.error) };
  const answer = await options.hooks.afterTool(call, outcome, options.abortSignal);
  for (const note of answer.notes) yield { type: 'notice', message: note };
  if (answer.replacedOutput === undefined && answer.context === undefined) return output;
  const seen = answer.replacedOutput ?? outputText(output);
  const text = answer.context === undefined ? seen : `${seen}\n\n[PostToolUse hook] ${answer.context}`;
  return { type: output.type === 'error-text' && answer.replacedOutput === undefined ? 'error-text' : 'text', value: text };
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
