import type { AgentEvent, StopReason, TurnCost } from '../agent/loop/events.ts';
import type { SpendMeter, TurnSpend } from './spend-meter.ts';

/**
 * The turn's events with what it cost on its `turn-end` (when the model's price is known), and the
 * turn's time added to the session's once it is over, however it ends.
 */
export async function* withCost(events: AsyncGenerator<AgentEvent, StopReason>, spend: TurnSpend, meter: SpendMeter): AsyncGenerator<AgentEvent, StopReason> {
  try {
    while (true) {
      const next = await events.next();
      if (next.done) return next.value;
      if (next.value.type !== 'turn-end') {
        yield next.value;
        continue;
      }
      spend.end();
      const cost = turnCost(next.value.usage, spend, meter);
      yield cost ? { ...next.value, cost } : next.value;
    }
  } finally {
    spend.end();
  }
}

function turnCost(usage: { inputTokens: number; cachedInputTokens: number }, spend: TurnSpend, meter: SpendMeter): TurnCost | undefined {
  if (!spend.usageCost.priced) return undefined;
  return {
    currency: meter.currency,
    turn: spend.cost,
    session: meter.cost,
    cachedShare: usage.inputTokens > 0 ? Math.min(1, usage.cachedInputTokens / usage.inputTokens) : 0,
    saved: Math.max(0, spend.usageCost.inputWithoutCache - spend.usageCost.input),
  };
}
