import { createHash } from 'node:crypto';
import { estimateTextTokens } from '../../src/shared/text/token-estimate.ts';
import type { ChatRequestBody, ScriptedUsage } from './dashscope-server.ts';

/**
 * DashScope's context cache as Alibaba Cloud Model Studio's "Context cache" page documents it, applied
 * to the chat-completions bodies a loopback server receives:
 * - explicit cache, when a request carries `cache_control: {"type": "ephemeral"}` markers (at most 4):
 *   from each marker the server looks back at most 20 content blocks for a prefix it holds, and takes
 *   the longest it finds as the hit (its validity reset to 5 minutes); a marker whose own prefix is not
 *   held creates a block from the start of the request to the marker, if that holds at least 1,024
 *   tokens, valid for 5 minutes. Hits are billed at 10% of the input price, created tokens at 125%.
 *   A created block is usable from the next request on ("creation happens after the response").
 * - implicit cache, when there is no marker: the page guarantees nothing, so `implicit` reports the
 *   best case, the longest prefix (at least 256 tokens) shared with a request of the last 5 minutes,
 *   billed at 20%.
 * Tokens are counted with Sylvan's own estimate of each block's text: the server's tokenizer is not
 * the point, the prefix arithmetic is. The clock is the caller's, so a test can let 5 minutes pass.
 */
export const EXPLICIT_VALIDITY_MS = 5 * 60_000;
const MAX_MARKERS = 4;
const LOOKBACK_BLOCKS = 20;
const MIN_EXPLICIT_TOKENS = 1_024;
const MIN_IMPLICIT_TOKENS = 256;

export interface CacheBill extends ScriptedUsage {
  /** The markers the request carried. */
  markers: number;
  /** Best-case implicit hit for a request without markers (the page promises none). */
  implicitCachedTokens: number;
}

interface Block {
  /** Fingerprint of the request up to and including this block (tools first). */
  prefix: string;
  /** Tokens of the request up to and including this block. */
  tokens: number;
  marked: boolean;
}

export class DashScopeCache {
  private readonly explicit = new Map<string, { tokens: number; expiresAt: number }>();
  private readonly implicit = new Map<string, { tokens: number; seenAt: number }>();
  /** Requests that carried more than 4 markers (DashScope keeps only the last 4). */
  tooManyMarkers = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The usage DashScope would report for `body`, and the cache as it stands after the response. */
  bill(body: ChatRequestBody): CacheBill {
    const blocks = blocksOf(body);
    const promptTokens = blocks.at(-1)?.tokens ?? 0;
    const markedAt = blocks.flatMap((block, index) => (block.marked ? [index] : []));
    const now = this.now();
    if (markedAt.length === 0) return this.billImplicit(blocks, promptTokens, now);
    if (markedAt.length > MAX_MARKERS) this.tooManyMarkers++;
    const markers = markedAt.slice(-MAX_MARKERS);

    let hit: { prefix: string; tokens: number } | undefined;
    const creates: Block[] = [];
    for (const position of markers) {
      for (let back = position; back >= Math.max(0, position - LOOKBACK_BLOCKS); back--) {
        const block = blocks[back] as Block;
        const held = this.explicit.get(block.prefix);
        if (held === undefined || held.expiresAt <= now) continue;
        if (hit === undefined || block.tokens > hit.tokens) hit = { prefix: block.prefix, tokens: block.tokens };
        break;
      }
      const marked = blocks[position] as Block;
      const held = this.explicit.get(marked.prefix);
      if ((held === undefined || held.expiresAt <= now) && marked.tokens >= MIN_EXPLICIT_TOKENS) creates.push(marked);
    }
    const cachedTokens = hit?.tokens ?? 0;
    if (hit) this.explicit.set(hit.prefix, { tokens: hit.tokens, expiresAt: now + EXPLICIT_VALIDITY_MS });
    const largestCreated = Math.max(0, ...creates.map((block) => block.tokens));
    for (const block of creates) this.explicit.set(block.prefix, { tokens: block.tokens, expiresAt: now + EXPLICIT_VALIDITY_MS });
    this.remember(blocks, now);
    return {
      promptTokens,
      completionTokens: 0,
      cachedTokens,
      cacheCreationTokens: Math.max(0, largestCreated - cachedTokens),
      cacheType: 'ephemeral',
      markers: markedAt.length,
      implicitCachedTokens: 0,
    };
  }

  private billImplicit(blocks: Block[], promptTokens: number, now: number): CacheBill {
    let implicitCachedTokens = 0;
    for (let index = blocks.length - 1; index >= 0; index--) {
      const block = blocks[index] as Block;
      const seen = this.implicit.get(block.prefix);
      if (seen !== undefined && now - seen.seenAt < EXPLICIT_VALIDITY_MS && block.tokens >= MIN_IMPLICIT_TOKENS) {
        implicitCachedTokens = block.tokens;
        break;
      }
    }
    this.remember(blocks, now);
    return { promptTokens, completionTokens: 0, cachedTokens: 0, markers: 0, implicitCachedTokens };
  }

  private remember(blocks: Block[], now: number): void {
    for (const block of blocks) this.implicit.set(block.prefix, { tokens: block.tokens, seenAt: now });
  }
}

/**
 * The request as content blocks: each part of an array content is one, a string (or null) content is
 * one, an assistant's tool calls belong to its block; the tool definitions are counted into the first.
 */
function blocksOf(body: ChatRequestBody): Block[] {
  const blocks: Block[] = [];
  let prefix = createHash('sha256').update(JSON.stringify(body.tools ?? null)).digest('hex');
  let tokens = body.tools ? estimateTextTokens(JSON.stringify(body.tools)) : 0;
  for (const message of body.messages ?? []) {
    const parts: unknown[] = Array.isArray(message.content) ? message.content : [message.content ?? null];
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const marked = isRecord(part) && part.cache_control !== undefined;
      const text = isRecord(part) ? (typeof part.text === 'string' ? part.text : JSON.stringify(part)) : String(part ?? '');
      const calls = last && message.tool_calls ? JSON.stringify(message.tool_calls) : '';
      const reasoning = last && typeof message.reasoning_content === 'string' ? message.reasoning_content : '';
      const identity = JSON.stringify([message.role, message.tool_call_id ?? null, text, calls, reasoning]);
      prefix = createHash('sha256').update(prefix).update(identity).digest('hex');
      tokens += 4 + estimateTextTokens(text) + estimateTextTokens(calls) + estimateTextTokens(reasoning);
      blocks.push({ prefix, tokens, marked });
    });
  }
  return blocks;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
