import { streamText, type ModelMessage } from 'ai';
import { approvalRound } from './approval-round.ts';
import { interruptedResults, repairHistory } from '../context/history-repair.ts';
import { debugDetail } from '../../providers/errors/describe-error.ts';
import { emptyStepMessage } from './empty-step.ts';
import { type AgentEvent, type StopReason } from './events.ts';
import { addUsage, emptyUsage } from '../../shared/token-usage.ts';
import { CircuitBreaker, DEFAULT_BREAKER_THRESHOLDS } from './circuit-breaker.ts';
import { guardAfterStep, guardMessage, RepeatedCallDetector } from './guards.ts';
import { outputText, withNote } from './result-notes.ts';
import { readStep } from './step-events.ts';
import { stepDeadline } from './step-deadline.ts';
import { stepFailure } from './step-failure.ts';
import { declaredOnly } from '../../shared/tool-declarations.ts';
import { splitResponse } from './step-results.ts';
import type { TurnOptions } from './turn-options.ts';


/** How many times a Stop hook may keep one turn going: a hook that always objects cannot loop forever. */
const MAX_STOP_CONTINUATIONS = 3;

/**
 * One user turn, by hand: a `while` loop in which each iteration is one model step —
 *   1. fit the history to the window;
 *   2. one `streamText` (a single request: the SDK runs no loop of its own), its full stream read and
 *      turned into Sylvan's events;
 *   3. the model's message appended to the history;
 *   4. the calls it made, judged, asked about and run (`approvalRound`), their results appended;
 *   5. the decision, in one place: done, a guard, or the next step.
 *
 * Yields events and never throws: every failure (the model, the network, a timeout, the user's
 * interrupt, a bug of ours) ends the turn with a `turn-end` that names its stop reason and gives the
 * user one line. Only whole steps enter the history, and whatever happens it ends valid: every
 * tool call has exactly one result, and the user's message is kept.
 */
export async function* agentLoop(options: TurnOptions): AsyncGenerator<AgentEvent, StopReason> {
  const { conversation, limits } = options;
  conversation.append({ role: 'user', content: options.userMessage });

  // The model is offered the tools' schemas; the loop runs the calls itself, where it can see them.
  const declaredTools = declaredOnly(options.tools);
  const detector = new RepeatedCallDetector(limits.maxIdenticalCalls);
  const breaker = new CircuitBreaker(limits.breaker ?? DEFAULT_BREAKER_THRESHOLDS);
  let usage = emptyUsage();
  let steps = 0;
  let finishReason: string | undefined;
  let stopContinuations = 0;

  const end = (stopReason: StopReason, message?: string, debug?: string): AgentEvent => {
    // A stopped turn may leave calls without results (an interrupt mid-round): answer them, through
    // append so the session file holds the answers too (a resume then knows they were stopped, not lost).
    if (stopReason !== 'completed') {
      const owed = interruptedResults(conversation.messages);
      if (owed) conversation.append(owed);
      conversation.replace(repairHistory([...conversation.messages]));
    }
    return { type: 'turn-end', stopReason, usage, steps, finishReason, message, debug };
  };

  try {
    while (true) {
      // Exit: the user's interrupt, between steps.
      if (options.abortSignal.aborted) {
        yield end('aborted', 'Interrupted.');
        return 'aborted';
      }

      // Exit: a budget in money, requests or time used up before this request.
      const overBudget = options.spend?.beforeRequest();
      if (overBudget) {
        yield end(overBudget.reason, overBudget.message);
        return overBudget.reason;
      }

      // 1. Fit the history to the window.
      steps++;
      yield { type: 'step-start', step: steps };
      const fitted = options.fitMessages?.(conversation.messages) ?? { messages: [...conversation.messages] };
      if (fitted.notice) yield { type: 'notice', message: fitted.notice };

      // 2. One model request, its stream read into events.
      // A time budget ends a request that would outlast it, not only the step after it.
      const timeLeft = options.spend?.timeLeftMs();
      const deadline = stepDeadline(options.abortSignal, Math.max(1, Math.min(options.stepTimeoutMs, timeLeft ?? Infinity)));
      const result = streamText({
        model: options.model,
        tools: declaredTools,
        instructions: options.instructions,
        messages: fitted.messages,
        maxRetries: options.maxRetries,
        abortSignal: deadline.signal,
        // The SDK's default prints raw errors to the console; they arrive as stream parts instead.
        onError: () => {},
      });
      const step = yield* readStep(result.stream);
      usage = addUsage(usage, step.usage);
      const spent = options.spend?.afterRequest(step.usage);
      for (const message of spent?.notices ?? []) yield { type: 'notice', message };
      // The turn reports the last step that finished (a failed request has none).
      if (step.finishReason !== 'unknown') finishReason = step.finishReason;

      // Exits: an API error, a network failure, the step timeout, the user's interrupt. The step
      // leaves no trace in the history.
      let response: ModelMessage[] | undefined;
      let failure = step.error ?? step.abortReason;
      if (failure === undefined) {
        try {
          response = await result.responseMessages;
        } catch (error) {
          failure = error;
        }
      }
      deadline.end();
      if (failure !== undefined || response === undefined) {
        const outOfTime = deadline.timedOut() ? options.spend?.beforeRequest() : undefined;
        if (outOfTime) {
          yield end(outOfTime.reason, outOfTime.message);
          return outOfTime.reason;
        }
        const failed = stepFailure(options, step.error ?? failure, step.abortReason, deadline.timedOut());
        yield end(failed.reason, failed.message, failed.debug);
        return failed.reason;
      }

      // Exit: an empty answer (no text, no call) is never a silent success, and is not kept.
      if (step.text.trim() === '' && step.calls.length === 0) {
        yield end('error', emptyStepMessage(step.finishReason, step.reasoning));
        return 'error';
      }

      // 3. The model's message enters the history at once: a call the user is asked about is on record.
      const truncated = new Set(step.calls.filter((call) => call.truncated).map((call) => call.toolCallId));
      const { model, answered } = splitResponse(response, truncated);
      conversation.append(...model);

      // 4. The calls it made: cut off or repeated ones refused, the rest asked about and run; their
      //    results follow in one tool message, so every call has exactly one.
      const round = yield* approvalRound(options, step.calls, { detector, breaker }, fitted.messages);
      // Steps that bring nothing new: the model is told in the step's last result, then stopped.
      const ran = round.results;
      const idle = ran.length > 0 ? breaker.afterStep(step.text, ran.map((part) => outputText(part.output))) : undefined;
      if (idle) {
        ran[ran.length - 1] = { ...ran[ran.length - 1]!, output: withNote(ran[ran.length - 1]!.output, idle) };
        yield { type: 'notice', message: '(the model is going round in circles: it was told to change course)' };
      }
      const results = [...answered, ...ran];
      if (results.length > 0) conversation.append({ role: 'tool', content: results });
      options.onStepUsage?.(fitted.messages, step.usage);

      // Exit: the user's interrupt during a question or a running tool (what ran is kept).
      if (round.interrupted) {
        yield end('aborted', 'Interrupted.');
        return 'aborted';
      }
      yield { type: 'step-end', step: steps, usage: step.usage, finishReason: step.finishReason };

      // 5. Decide. Exits: a repeated call or loop, the token budget, a budget in money, requests or time, the step limit, the model done.
      const wantsAnotherStep = step.calls.length > 0;
      // The budget counts what the turn's subagents used too.
      const counted = options.usageBeside ? addUsage(usage, options.usageBeside()) : usage;
      const repeated = detector.repeated !== undefined || breaker.tripped !== undefined;
      const guard = guardAfterStep(limits, { steps, usage: counted, wantsAnotherStep, repeated, budget: spent?.stop?.reason });
      if (guard) {
        const message = guard === spent?.stop?.reason ? spent.stop.message : guardMessage(guard, { limits, usage: counted, steps, repeated: detector.repeated, breaker: breaker.tripped });
        yield end(guard, message);
        return guard;
      }
      if (!wantsAnotherStep) {
        const goOn = yield* stopHook(options, step.text, stopContinuations);
        if (goOn !== undefined) {
          stopContinuations++;
          conversation.append({ role: 'user', content: goOn });
          continue;
        }
        yield end('completed');
        return 'completed';
      }
    }
  } catch (error) {
    // Exit: a bug of ours, not the model's. The turn still ends cleanly with a valid history.
    yield end('error', `Internal error: ${error instanceof Error ? error.message : String(error)}`, debugDetail(error));
    return 'error';
  }
}

/** The Stop hooks' reason to go on (as the model will read it), within the bound; their notes yielded. */
async function* stopHook(options: TurnOptions, lastText: string, continuations: number): AsyncGenerator<AgentEvent, string | undefined> {
  if (!options.hooks) return undefined;
  const answer = await options.hooks.beforeStop(lastText, continuations > 0, options.abortSignal);
  for (const note of answer.notes) yield { type: 'notice', message: note };
  if (answer.continueWith === undefined || options.abortSignal.aborted) return undefined;
  const event = options.hooks.stopEvent ?? 'Stop';
  const what = event === 'SubagentStop' ? 'the subagent' : 'the turn';
  if (continuations >= MAX_STOP_CONTINUATIONS) {
    yield { type: 'notice', message: `(a ${event} hook asked to keep going again; ${what} ends after ${MAX_STOP_CONTINUATIONS} continuations)` };
    return undefined;
  }
  yield { type: 'notice', message: `(a ${event} hook keeps ${what} going)` };
  return `A ${event} hook did not let ${what} end yet: ${answer.continueWith}`;
}
