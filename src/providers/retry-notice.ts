/** Why a model request is sent again: throttling, a failing server (5xx, an overloaded frame), or no connection. */
export type RetryReason = 'rate-limited' | 'server-error' | 'network';

/**
 * What a retry says, as the model's fetch reports it (the loop's `retry` event carries it): a model
 * request failed in a way worth another try, and is sent again after `delayMs` (the user's
 * interrupt stops the wait). `attempt` counts the retries, 1 for the first, of `maxRetries`.
 */
export interface RetryNotice {
  attempt: number;
  maxRetries: number;
  delayMs: number;
  reason: RetryReason;
  status?: number;
}
