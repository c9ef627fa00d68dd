import { createHash } from 'node:crypto';
import type { LanguageModelV4CallOptions, LanguageModelV4Message, LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { COMPACTION_SUMMARY_PREFIX } from '../shared/compaction-summary.ts';
import { estimateJsonTokens, estimateMessageTokens, estimateTextTokens } from '../shared/token-estimate.ts';

/**
 * DashScope's explicit context cache (Alibaba Cloud Model Studio, "Context cache"): a
 * `cache_control: {"type": "ephemeral"}` marker on a content block asks for the prefix of the request
 * up to it (tools, system, messages) to be cached for 5 minutes (each hit resets the clock). At most
 * 4 markers a request; a block must hold at least 1,024 tokens; from each marker the server looks
 * back at most 20 content blocks for a prefix it already holds, and bills the longest it finds at
 * 10% of the input price, the tokens of a newly created block at 125%.
 */
export const MAX_CACHE_MARKERS = 4;
const MIN_CACHE_BLOCK_TOKENS = 1_024;

const EPHEMERAL = { type: 'ephemeral' } as const;
/** Prefixes marked by recent requests: enough to outlive a compaction request in between. */
const REMEMBERED_PREFIXES = 16;

/**
 * Where the markers of one request go, as indices into its prompt (system messages included), in the
 * order they were chosen:
 * 1. the end of the request: the cache the next step hits (it holds everything this step sent);
 * 2. the end of an earlier request's prefix that this one repeats — normally the previous step's
 *    last message, which that step marked and so created: a guaranteed hit, even when this step
 *    added more than the 20 blocks the end marker can look back over (many tool results);
 * 3. the end of the system message (instructions and tools), which stays the same when the fitter
 *    leaves older turns out, so a request after an eviction still hits it;
 * 4. the end of the /compact summary pair when the history opens with one: stable the same way.
 * A position is marked only when the prefix up to it holds at least `MIN_CACHE_BLOCK_TOKENS`
 * (estimated), since a smaller block is never created.
 */
export class CacheMarkerPlanner {
  private readonly remembered: string[] = [];

  /** The indices to mark in `prompt`, and remembers them for the requests after it. */
  plan(prompt: readonly LanguageModelV4Message[], tools: unknown): number[] {
    const prefixes = prefixFingerprints(prompt, tools);
    const tokens = prefixTokens(prompt, tools);
    const big = (index: number) => (tokens[index] ?? 0) >= MIN_CACHE_BLOCK_TOKENS;
    const chosen: number[] = [];
    const choose = (index: number | undefined) => {
      if (index === undefined || index < 0 || !big(index) || chosen.includes(index) || chosen.length >= MAX_CACHE_MARKERS) return;
      chosen.push(index);
    };
    const last = prompt.length - 1;
    choose(last);
    for (let index = last - 1; index >= 0; index--) {
      if (this.remembered.includes(prefixes[index] as string)) {
        choose(index);
        break;
      }
    }
    choose(lastSystemIndex(prompt));
    choose(summaryPairEnd(prompt));
    for (const index of chosen) this.remember(prefixes[index] as string);
    return chosen;
  }

  private remember(prefix: string): void {
    const known = this.remembered.indexOf(prefix);
    if (known >= 0) this.remembered.splice(known, 1);
    this.remembered.push(prefix);
    if (this.remembered.length > REMEMBERED_PREFIXES) this.remembered.shift();
  }
}

/** The prompt with `providerOptions.alibaba.cacheControl` on the messages at `indices` (@ai-sdk/alibaba's own option). */
function withCacheMarkers(prompt: readonly LanguageModelV4Message[], indices: readonly number[]): LanguageModelV4Message[] {
  return prompt.map((message, index) => {
    if (!indices.includes(index)) return message;
    const providerOptions = message.providerOptions ?? {};
    return { ...message, providerOptions: { ...providerOptions, alibaba: { ...providerOptions.alibaba, cacheControl: EPHEMERAL } } };
  });
}

/** Marks each DashScope request as `CacheMarkerPlanner` plans; one planner per model, so it follows that model's steps. */
export function cacheMarkersMiddleware(): LanguageModelV4Middleware {
  const planner = new CacheMarkerPlanner();
  return {
    specificationVersion: 'v4',
    transformParams: async ({ params }): Promise<LanguageModelV4CallOptions> => {
      const indices = planner.plan(params.prompt, params.tools);
      return indices.length === 0 ? params : { ...params, prompt: withCacheMarkers(params.prompt, indices) };
    },
  };
}

/**
 * A fingerprint of the prefix ending at each message, over what the provider sends: the tools, then
 * each message without its provider options. Reasoning counts only after the last user message,
 * because @ai-sdk/alibaba sends `reasoning_content` only there: an earlier turn's reasoning is left
 * out, so its prefix changes once the next question arrives.
 */
function prefixFingerprints(prompt: readonly LanguageModelV4Message[], tools: unknown): string[] {
  const lastUser = prompt.findLastIndex((message) => message.role === 'user');
  let previous = createHash('sha256').update(JSON.stringify(tools ?? null)).digest('hex');
  return prompt.map((message, index) => {
    const sent = message.role === 'assistant' && index < lastUser
      ? { role: message.role, content: message.content.filter((part) => part.type !== 'reasoning') }
      : { role: message.role, content: message.content };
    previous = createHash('sha256').update(previous).update(JSON.stringify(sent)).digest('hex');
    return previous;
  });
}

/** Estimated tokens of the prefix ending at each message (the tools' definitions included). */
function prefixTokens(prompt: readonly LanguageModelV4Message[], tools: unknown): number[] {
  let total = tools === undefined ? 0 : estimateJsonTokens(tools);
  return prompt.map((message) => {
    total += message.role === 'system' ? estimateTextTokens(message.content) : estimateMessageTokens(message as unknown as ModelMessage);
    return total;
  });
}

function lastSystemIndex(prompt: readonly LanguageModelV4Message[]): number | undefined {
  let found: number | undefined;
  for (const [index, message] of prompt.entries()) {
    if (message.role !== 'system') break;
    found = index;
  }
  return found;
}

/** The assistant reply that closes the /compact summary pair opening the history, if it does. */
function summaryPairEnd(prompt: readonly LanguageModelV4Message[]): number | undefined {
  const first = prompt.findIndex((message) => message.role !== 'system');
  const opening = prompt[first];
  if (opening?.role !== 'user') return undefined;
  const text = opening.content[0];
  if (text?.type !== 'text' || !text.text.startsWith(COMPACTION_SUMMARY_PREFIX)) return undefined;
  return prompt[first + 1]?.role === 'assistant' ? first + 1 : undefined;
}
