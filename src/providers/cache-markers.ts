import type { LanguageModelV4CallOptions, LanguageModelV4Message, LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { COMPACTION_SUMMARY_PREFIX } from '../shared/compaction-summary.ts';
import { estimateJsonTokens, estimateMessageTokens, estimateTextTokens } from '../shared/text/token-estimate.ts';

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

/** A prefix an earlier request marked: its first `length` messages, as that request sent them. */
interface MarkedPrefix {
  prompt: readonly LanguageModelV4Message[];
  /** Where @ai-sdk/alibaba's reasoning rule splits that prompt (see `sentContent`). */
  lastUser: number;
  tools: string;
  length: number;
}

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
 *
 * Every request carries the whole history, so what planning costs must not grow with it: a prefix is
 * recognised by comparing messages, not by hashing each request whole (a SHA-256 per message made a
 * request at turn 300 wait milliseconds longer than at turn 10). The messages of one request share
 * their texts and inputs with the last, so the comparison mostly meets the same objects.
 */
export class CacheMarkerPlanner {
  private readonly remembered: MarkedPrefix[] = [];

  /** The indices to mark in `prompt`, and remembers them for the requests after it. */
  plan(prompt: readonly LanguageModelV4Message[], tools: unknown): number[] {
    const firstBig = firstBigPrefix(prompt, tools);
    const current = { prompt, lastUser: lastUserIndex(prompt), tools: JSON.stringify(tools ?? null) };
    const chosen: number[] = [];
    const choose = (index: number | undefined) => {
      if (index === undefined || index < firstBig || chosen.includes(index) || chosen.length >= MAX_CACHE_MARKERS) return;
      chosen.push(index);
    };
    const last = prompt.length - 1;
    choose(last);
    choose(this.longestRepeated(current, last));
    choose(lastSystemIndex(prompt));
    choose(summaryPairEnd(prompt));
    for (const index of chosen) this.remember({ ...current, length: index + 1 });
    return chosen;
  }

  /** The end of the longest remembered prefix that `current` repeats, ending before `before`. */
  private longestRepeated(current: Omit<MarkedPrefix, 'length'>, before: number): number | undefined {
    const longestFirst = this.remembered.filter((marked) => marked.length - 1 < before).sort((a, b) => b.length - a.length);
    const found = longestFirst.find((marked) => repeats(current, marked));
    return found === undefined ? undefined : found.length - 1;
  }

  private remember(prefix: MarkedPrefix): void {
    const known = this.remembered.findIndex((marked) => marked.length === prefix.length && repeats(prefix, marked));
    if (known >= 0) this.remembered.splice(known, 1);
    this.remembered.push(prefix);
    if (this.remembered.length > REMEMBERED_PREFIXES) this.remembered.shift();
  }
}

/** Whether `current` begins with what `marked` sent, over the provider's view: tools, then each message without its provider options. */
function repeats(current: Omit<MarkedPrefix, 'length'>, marked: MarkedPrefix): boolean {
  if (marked.length > current.prompt.length || marked.tools !== current.tools) return false;
  // From the end: a prefix that differs, differs mostly in its last messages.
  for (let index = marked.length - 1; index >= 0; index--) {
    const mine = current.prompt[index]!;
    const theirs = marked.prompt[index]!;
    if (mine.role !== theirs.role) return false;
    if (!sameValue(sentContent(mine, index, current.lastUser), sentContent(theirs, index, marked.lastUser))) return false;
  }
  return true;
}

/**
 * A message's content as @ai-sdk/alibaba sends it: reasoning only after the last user message, since
 * an earlier turn's reasoning is left out — so a prefix changes once the next question arrives.
 */
function sentContent(message: LanguageModelV4Message, index: number, lastUser: number): unknown {
  return message.role === 'assistant' && index < lastUser ? message.content.filter((part) => part.type !== 'reasoning') : message.content;
}

/** Equal as JSON would write them (a key holding `undefined` is no key); the same object is equal at once. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameValue(a[index], other[index])) return false;
    return true;
  }
  // Loops, not Object.keys: this runs for every message of every request.
  const mine = a as Record<string, unknown>;
  const theirs = b as Record<string, unknown>;
  let keys = 0;
  for (const key in mine) {
    if (mine[key] === undefined) continue;
    keys++;
    if (!sameValue(mine[key], theirs[key])) return false;
  }
  for (const key in theirs) if (theirs[key] !== undefined) keys--;
  return keys === 0;
}

const lastUserIndex = (prompt: readonly LanguageModelV4Message[]): number => prompt.findLastIndex((message) => message.role === 'user');

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
 * The first index whose prefix (the tools' definitions included) holds `MIN_CACHE_BLOCK_TOKENS`,
 * estimated: every later prefix holds more. Counting stops there, so a long history costs nothing.
 */
function firstBigPrefix(prompt: readonly LanguageModelV4Message[], tools: unknown): number {
  let total = tools === undefined ? 0 : estimateJsonTokens(tools);
  for (const [index, message] of prompt.entries()) {
    total += message.role === 'system' ? estimateTextTokens(message.content) : estimateMessageTokens(message as unknown as ModelMessage);
    if (total >= MIN_CACHE_BLOCK_TOKENS) return index;
  }
  return prompt.length;
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
