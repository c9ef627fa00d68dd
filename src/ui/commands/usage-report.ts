import type { TokenUsage } from '../../shared/token-usage.ts';
import type { TurnCost } from '../../agent/loop/events.ts';
import { DASHSCOPE_CACHE_RATES, estimateCosts, formatMoney, pricedByDashScopeCache, type Currency, type Pricing } from '../../models/model-catalogue.ts';
import { countOf, digits } from '../../shared/text/count-text.ts';

const percent = (share: number) => `${Math.round(share * 100)}%`;

export interface UsageReport {
  totals: string;
  /** Only when a cache served or took some of the input. */
  cache?: string;
  /** The estimate, or `unpriced` when the price table does not know the model. */
  cost?: string;
  unpriced?: string;
}

/**
 * What /usage prints about the session's tokens and their price: the totals; when a cache served or
 * took any input, the share served from it and how each part is billed; the estimated cost, and
 * what the cache saved on the input.
 */
export function usageReport(model: string, usage: TokenUsage, pricing?: Pricing): UsageReport {
  const totals = `  session: ${digits(usage.inputTokens)} input · ${digits(usage.outputTokens)} output · ${digits(usage.cachedInputTokens)} cached`;
  let cache: string | undefined;
  const explicit = usage.explicitCachedInputTokens ?? 0;
  const implicit = usage.cachedInputTokens - explicit;
  const created = usage.cacheCreationInputTokens ?? 0;
  if (usage.cachedInputTokens > 0 || created > 0) {
    const dashscope = pricedByDashScopeCache(model);
    const rate = (share: number) => (dashscope ? ` at ${percent(share)}` : '');
    const parts = [
      explicit > 0 && `${digits(explicit)} explicit hits${rate(DASHSCOPE_CACHE_RATES.explicitHit)}`,
      implicit > 0 && `${digits(implicit)} implicit hits${rate(DASHSCOPE_CACHE_RATES.implicitHit)}`,
      created > 0 && `${digits(created)} written to the cache${rate(DASHSCOPE_CACHE_RATES.creation)}`,
    ].filter(Boolean);
    const share = usage.inputTokens > 0 ? usage.cachedInputTokens / usage.inputTokens : 0;
    cache = `  cache: ${percent(share)} of input served from cache (${parts.join(', ')})`;
  }
  const cost = estimateCosts(model, usage, pricing);
  if (cost === undefined) return { totals, cache, unpriced: `  no price known for ${model}` };
  const money = (value: number) => formatMoney(value, cost.currency);
  const saved = cost.inputWithoutCache - cost.input;
  const saving = saved > 0 ? `; the cache saved ${money(saved)} of ${money(cost.inputWithoutCache)} input` : '';
  return { totals, cache, cost: `  ≈ ${money(cost.total)} at ${model} list prices (an estimate)${saving}` };
}

/**
 * How full the context window is — a whole percent and the window as `33k` — from the runtime's one
 * measure (`Runtime.contextShare`), so the turn's usage line and /usage never disagree.
 */
export function contextFill(runtime: { contextShare(): number; readonly windowTokens: number }): { percent: number; window: string } {
  return { percent: Math.round(runtime.contextShare() * 100), window: `${Math.round(runtime.windowTokens / 1000)}k` };
}

/** The turn line's money: `¥0.0123 (40% cached, saved ¥0.0021)`; the share and saving only when a cache served input. */
export function turnCostText(cost: TurnCost): string {
  const money = (value: number) => formatMoney(value, cost.currency as Currency);
  const cached = cost.cachedShare > 0 ? ` (${Math.round(cost.cachedShare * 100)}% cached, saved ${money(cost.saved)})` : '';
  return `${money(cost.turn)}${cached}`;
}

/** One line per subagent of the session, for /usage: what each one cost (already counted in the session's totals). */
export function subagentUsageLines(records: readonly { agentId: string; description: string; usage: TokenUsage; steps: number; stopReason?: string }[]): string[] {
  if (records.length === 0) return [];
  return [
    `  subagents (included above):`,
    ...records.map((record) => {
      const ended = record.stopReason && record.stopReason !== 'completed' ? ` · ${record.stopReason}` : '';
      return `    ${record.agentId} ${record.description}: ${digits(record.usage.inputTokens)} input · ${digits(record.usage.outputTokens)} output · ${digits(record.usage.cachedInputTokens)} cached · ${countOf(record.steps, 'step')}${ended}`;
    }),
  ];
}
