import { debugDetail, describeModelError } from '../../providers/errors/describe-error.ts';
import type { StopReason } from './events.ts';
import type { TurnOptions } from './turn-options.ts';

/** Why a model request ended the turn, and the one line the user reads. */
export interface StepFailure {
  reason: StopReason;
  message: string;
  debug?: string;
}

const isTimeout = (value: unknown): boolean =>
  value instanceof Error ? value.name === 'TimeoutError' || /timeout/i.test(value.message) : /timeout/i.test(String(value));

/** The user's interrupt, the step timeout, or the model's or the network's error, in that order. */
export function stepFailure(options: TurnOptions, error: unknown, abortReason: unknown, timedOut = false): StepFailure {
  if (options.abortSignal.aborted) return { reason: 'aborted', message: 'Interrupted.' };
  if (timedOut || isTimeout(abortReason) || isTimeout(error)) {
    const seconds = Math.round(options.stepTimeoutMs / 1000);
    return {
      reason: 'timeout',
      message: `No complete answer from ${options.provider.label.replace(/^The /, 'the ')} within ${seconds} s (--timeout). Try again, or raise --timeout / SYLVAN_TIMEOUT.`,
    };
  }
  const cause = error ?? abortReason;
  return { reason: 'error', message: describeModelError(cause, options.provider), debug: debugDetail(cause) };
}
