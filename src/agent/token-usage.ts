import type { LanguageModelUsage } from 'ai';
import type { TokenUsage } from './events.ts';

/** A step's usage as the SDK reports it, in Sylvan's terms (missing counts are 0). */
export function tokenUsageOf(usage: LanguageModelUsage | undefined): TokenUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedInputTokens: usage?.inputTokenDetails?.cacheReadTokens ?? 0,
  };
}
