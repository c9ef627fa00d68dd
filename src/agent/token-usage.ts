import type { LanguageModelUsage } from 'ai';
import type { TokenUsage } from './events.ts';

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
