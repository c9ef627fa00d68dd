import type { Problem } from './provider-errors.ts';

/**
 * A failure Sylvan's own fetch found: an error frame or JSON error inside a 200, a 200 that is not
 * a stream, a runaway stream, or the last of several failed tries. `describeModelError` reads it
 * through the table in provider-errors.ts.
 */
export class ProviderFault extends Error {
  override name = 'ProviderFault';
  constructor(
    readonly problem: Problem,
    /** How many times the request was sent. */
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(problem.message ?? problem.code ?? problem.fault ?? 'provider error', options);
  }
}

export const isProviderFault = (value: unknown): value is ProviderFault =>
  value instanceof Error && value.name === 'ProviderFault' && 'problem' in value;
