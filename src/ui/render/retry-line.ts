import type { AgentEvent } from '../../agent/loop/events.ts';

type Retry = Extract<AgentEvent, { type: 'retry' }>;

const REASONS: Record<Retry['reason'], string> = {
  'rate-limited': 'rate limited',
  'server-error': 'server error',
  network: 'network error',
};

/** `rate limited (429) · retrying (1/3) in 2 s`: why the request is sent again, which try, and when. */
export function retryLine(retry: Retry, secondsLeft = Math.ceil(retry.delayMs / 1000)): string {
  const status = retry.status === undefined ? '' : ` (${retry.status})`;
  return `${REASONS[retry.reason]}${status} · retrying (${retry.attempt}/${retry.maxRetries}) in ${Math.max(0, secondsLeft)} s`;
}
