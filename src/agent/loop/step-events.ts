import type { TextStreamPart, ToolSet } from 'ai';
import type { AgentEvent } from './events.ts';
import type { TokenUsage } from '../../shared/token-usage.ts';
import { emptyUsage } from '../../shared/token-usage.ts';
import { tokenUsageOf } from '../../shared/token-usage.ts';
import { isTruncatedCall } from '../../providers/truncated-calls-filter.ts';
import { readableToolError, truncatedCallResult } from './step-results.ts';

/** A tool call the model made in a step, as the loop needs it to decide and run it. */
export interface StepCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The SDK could not parse or validate it; it already answered it with an error. */
  invalid: boolean;
  /** Written while the answer hit its output limit: its arguments may be cut off, so it is not run. */
  truncated: boolean;
  /** Run by the provider, whose result arrives in the stream. */
  providerExecuted: boolean;
}

/** What one model request produced, read from its full stream. */
export interface StepRead {
  text: string;
  reasoning: string;
  calls: StepCall[];
  finishReason: string;
  usage: TokenUsage;
  /** The first error part, or an exception from reading the stream. */
  error?: unknown;
  /** Set when the stream was aborted (the user's interrupt or the step timeout). */
  abortReason?: unknown;
}

/**
 * Reads one step's full stream (`result.stream`) part by part, yields each part that matters to the
 * user as Sylvan's own event, and returns what the step produced. Never throws: a failure of the
 * stream is returned as `error`.
 */
export async function* readStep(stream: AsyncIterable<TextStreamPart<ToolSet>>): AsyncGenerator<AgentEvent, StepRead> {
  const step: StepRead = { text: '', reasoning: '', calls: [], finishReason: 'unknown', usage: emptyUsage() };
  const truncated = new Set<string>();
  try {
    for await (const part of stream) {
      // After an error (a stream cut short) the provider still closes the calls it had begun, with
      // whatever arguments arrived: none of them will run, so none is shown.
      if (step.error !== undefined && part.type.startsWith('tool-')) continue;
      switch (part.type) {
        case 'text-delta':
          step.text += part.text;
          yield { type: 'text-delta', text: part.text };
          break;
        case 'reasoning-delta':
          step.reasoning += part.text;
          yield { type: 'reasoning-delta', text: part.text };
          break;
        case 'tool-call': {
          const call: StepCall = {
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            invalid: part.invalid === true,
            truncated: isTruncatedCall(part),
            providerExecuted: part.providerExecuted === true,
          };
          if (call.truncated) truncated.add(call.toolCallId);
          step.calls.push(call);
          yield { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
          break;
        }
        case 'tool-error':
          // The SDK's answer to a call it could not parse or validate (or a provider-run tool's failure).
          yield {
            type: 'tool-error',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            error: truncated.has(part.toolCallId) ? truncatedCallResult(part.toolName) : readableToolError(part.error),
          };
          break;
        case 'tool-result':
          // Only a provider-run tool has its result in the stream; the loop runs all the others.
          yield { type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, output: part.output };
          break;
        case 'finish-step':
          step.finishReason = part.finishReason;
          step.usage = tokenUsageOf(part.usage);
          break;
        case 'error':
          step.error ??= part.error;
          break;
        case 'abort':
          step.abortReason = part.reason ?? 'aborted';
          break;
        default:
          break;
      }
    }
  } catch (error) {
    step.error ??= error;
  }
  return step;
}
