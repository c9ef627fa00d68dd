import type { LanguageModelUsage } from 'ai';

/**
 * Token counts. `cachedInputTokens` is the part of `inputTokens` served from the provider's cache;
 * `explicitCachedInputTokens` the part of that which hit an explicit cache block (DashScope bills it
 * lower than an implicit hit), and `cacheCreationInputTokens` the part of `inputTokens` that created
 * one (billed higher). The two are optional: most providers report neither.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  explicitCachedInputTokens?: number;
  cacheCreationInputTokens?: number;
}

export const emptyUsage = (): TokenUsage => ({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });

/** The sum; the optional cache counts appear in it once either side has them. */
export function addUsage(total: TokenUsage, step: TokenUsage): TokenUsage {
  const sum: TokenUsage = {
    inputTokens: total.inputTokens + step.inputTokens,
    outputTokens: total.outputTokens + step.outputTokens,
    cachedInputTokens: total.cachedInputTokens + step.cachedInputTokens,
  };
  if (total.explicitCachedInputTokens !== undefined || step.explicitCachedInputTokens !== undefined) {
    sum.explicitCachedInputTokens = (total.explicitCachedInputTokens ?? 0) + (step.explicitCachedInputTokens ?? 0);
  }
  if (total.cacheCreationInputTokens !== undefined || step.cacheCreationInputTokens !== undefined) {
    sum.cacheCreationInputTokens = (total.cacheCreationInputTokens ?? 0) + (step.cacheCreationInputTokens ?? 0);
  }
  return sum;
}

/**
 * A step's usage as the SDK reports it, in Sylvan's terms (missing counts are 0). DashScope's
 * `prompt_tokens_details` arrive as `cacheReadTokens` (`cached_tokens`) and `cacheWriteTokens`
 * (`cache_creation_input_tokens`); its `cache_type`, in the raw usage, is set only when explicit
 * cache markers were sent, and tells an explicit hit (10% of the input price) from an implicit one (20%).
 */
export function tokenUsageOf(usage: LanguageModelUsage | undefined): TokenUsage {
  const cachedInputTokens = usage?.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheCreationInputTokens = usage?.inputTokenDetails?.cacheWriteTokens ?? 0;
  const explicitCachedInputTokens = explicitCache(usage) ? cachedInputTokens : 0;
  // Only when reported, so usage from other providers keeps its three counts.
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedInputTokens,
    ...(explicitCachedInputTokens > 0 && { explicitCachedInputTokens }),
    ...(cacheCreationInputTokens > 0 && { cacheCreationInputTokens }),
  };
}

function explicitCache(usage: LanguageModelUsage | undefined): boolean {
  if ((usage?.inputTokenDetails?.cacheWriteTokens ?? 0) > 0) return true;
  const details = usage?.raw?.prompt_tokens_details;
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return false;
  const cacheType = (details as Record<string, unknown>).cache_type;
  return typeof cacheType === 'string' && cacheType !== '';
}
