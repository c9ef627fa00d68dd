import type { ModelMessage, ToolSet } from 'ai';
import { fitToWindow, toolResultCap, type FitOptions, type FitResult } from './context-window.ts';
import { HistoryMeasures } from './history-measures.ts';
import { estimateJsonTokens, estimateMessageTokens, estimateTextTokens, TokenCalibration } from '../../shared/text/token-estimate.ts';
import type { TokenUsage } from '../../shared/token-usage.ts';
import { digits } from '../../shared/text/count-text.ts';

interface ToolGroup {
  /** `server__*` for an MCP server's tools, `built-in` for Sylvan's own. */
  prefix: string;
  count: number;
  tokens: number;
}

/** A tool's JSON Schema when it is already at hand (MCP tools carry theirs); zod schemas are not converted here. */
function plainJsonSchema(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || !('jsonSchema' in schema) || !('validate' in schema)) return undefined;
  const json = (schema as { jsonSchema: unknown }).jsonSchema;
  return typeof json === 'object' && json !== null && typeof (json as { then?: unknown }).then !== 'function' ? json : undefined;
}
/**
 * When the window is full, the chunked eviction leaves out older turns until the history takes at
 * most this share of the room it has (the window less instructions, tools and the answer's room).
 */
export const EVICT_TO_SHARE = 0.7;

/**
 * `chunks` (the default): when the history no longer fits, older turns are left out until it takes
 * `EVICT_TO_SHARE` of its room, and the same turns stay out until it is full again, so the prefix
 * sent stays byte-identical for many steps and a provider's prompt cache can serve it; `turns`: as
 * many of the newest turns as fit, which moves the start of the history at every step once full.
 */
export type Eviction = 'chunks' | 'turns';

/** Fitted history plus what the user should be told about it. */
export interface FittedMessages {
  messages: ModelMessage[];
  notice?: string;
  estimatedTokens: number;
}

/**
 * Keeps each request within the model's context window. Counts with the cached CJK-aware estimate,
 * scaled up (never down) by what the provider reports, so the estimate stays an upper bound.
 */
export class ContextFitter {
  private readonly calibration = new TokenCalibration({ minRatio: 1, maxRatio: 2 });
  private reservedTokens = 0;
  /** The part of `reservedTokens` kept for the answer (not yet used by anything). */
  private answerRoomTokens = 0;
  /** The share of `reservedTokens` that the tool definitions take, and who offers the most of them. */
  private toolTokens = 0;
  private toolGroups: ToolGroup[] = [];
  private lastDroppedTurns = 0;
  private readonly measures = new HistoryMeasures();
  /** The last fitted window and its raw estimate, so `observe` on it needs no pass of its own. */
  private lastFit: { messages: readonly ModelMessage[]; length: number; rawTokens: number } | undefined;
  /** With chunked eviction, the index of the oldest turn kept since the last eviction (undefined: none yet in this history). */
  private keptFrom: number | undefined;
  private readonly eviction: Eviction;

  constructor(
    readonly windowTokens: number,
    instructions: string,
    tools: ToolSet,
    options: { eviction?: Eviction } = {},
  ) {
    this.eviction = options.eviction ?? 'chunks';
    this.reserveFor(instructions, tools);
  }

  /** Counts the room instructions and tools take again, when they change (MCP servers come and go). */
  reserveFor(instructions: string, tools: ToolSet): void {
    const groups = new Map<string, ToolGroup>();
    let toolTokens = 0;
    for (const [name, tool] of Object.entries(tools)) {
      // Doubled: the provider's framing of a tool costs about as much again as its name and description.
      const tokens = estimateJsonTokens({ name, description: tool.description }) * 2 + estimateJsonTokens(plainJsonSchema(tool.inputSchema) ?? {});
      toolTokens += tokens;
      // MCP tools are offered as `server__tool`: grouping by that prefix names the server that offers the most.
      const prefix = name.includes('__') ? `${name.slice(0, name.indexOf('__'))}__*` : 'built-in';
      const group = groups.get(prefix) ?? { prefix, count: 0, tokens: 0 };
      group.count++;
      group.tokens += tokens;
      groups.set(prefix, group);
    }
    this.toolTokens = toolTokens;
    this.toolGroups = [...groups.values()].sort((left, right) => right.tokens - left.tokens);
    // Room for the answer: a share of the window, capped so small windows still hold a conversation.
    this.answerRoomTokens = Math.min(8_192, Math.floor(this.windowTokens * 0.15));
    this.reservedTokens = estimateTextTokens(instructions) + toolTokens + this.answerRoomTokens;
  }

  /** Estimated tokens of a history, as the fitter counts them. */
  estimate(messages: readonly ModelMessage[]): number {
    this.measures.sync(messages);
    return this.measures.scaledTotal(messages, this.calibration.ratio);
  }

  /** The share of the window the history would take, 0..1+. */
  usedShare(messages: readonly ModelMessage[]): number {
    return (this.estimate(messages) + this.reservedTokens) / this.windowTokens;
  }

  /** Estimated tokens of a request carrying this history whole: the history, instructions and tools (no room kept for the answer). */
  requestEstimate(messages: readonly ModelMessage[]): number {
    return this.estimate(messages) + this.reservedTokens - this.answerRoomTokens;
  }

  /** Estimated tokens of a few messages (say, those added since the provider last counted), without touching the history's measures. */
  estimateMessages(messages: readonly ModelMessage[]): number {
    let total = 0;
    for (const message of messages) total += this.count(message);
    return total;
  }

  /** The share of the room left for history (the window less instructions, tools and the answer), 0..1+. */
  historyShare(messages: readonly ModelMessage[]): number {
    return this.estimate(messages) / Math.max(1, this.windowTokens - this.reservedTokens);
  }

  /**
   * The history to send. Before every step: the measures of an append-only history are kept between
   * calls (see `HistoryMeasures`), so a history that fits whole costs one pass of arithmetic; one that
   * does not is fitted turn by turn from the newest, visiting about a window's worth of messages.
   * With chunked eviction (see `Eviction`) the oldest turn kept is remembered while the history only
   * grows; a new array (/compact, /clear, a repair) starts again from the whole history.
   */
  fit(messages: readonly ModelMessage[]): FittedMessages {
    if (!this.measures.sync(messages)) this.keptFrom = undefined;
    const budget = Math.max(0, this.windowTokens - this.reservedTokens);
    const whole =
      this.keptFrom === undefined
        ? this.measures.fitWhole(messages, budget, this.calibration.ratio, toolResultCap({ windowTokens: this.windowTokens }))
        : undefined;
    const result = whole ?? this.fitPart(messages, budget);
    this.lastFit = whole && { messages: whole.messages, length: whole.messages.length, rawTokens: whole.rawTokens };
    let notice: string | undefined;
    if (result.droppedTurns > 0 && result.droppedTurns !== this.lastDroppedTurns) {
      notice = `(${result.droppedTurns} older turn${result.droppedTurns === 1 ? '' : 's'} left out to fit the ${Math.round(this.windowTokens / 1000)}k context window; /compact summarises them)`;
    } else if (result.estimatedTokens > this.windowTokens - this.reservedTokens && result.estimatedTokens <= this.windowTokens - this.reservedTokens + this.toolTokens) {
      // The message would fit without the tools: they are what is too big, not what the user wrote.
      notice = this.toolsTooBigNotice();
    } else if (result.estimatedTokens > this.windowTokens - this.reservedTokens) {
      notice = `(this message is about ${digits(result.estimatedTokens)} tokens, more than the ${Math.round(this.windowTokens / 1000)}k context window holds; sending it anyway, the model may refuse it)`;
    } else if (result.shortenedResults > 0) {
      notice = `(${result.shortenedResults} long tool result${result.shortenedResults === 1 ? '' : 's'} shortened to fit the context window)`;
    }
    this.lastDroppedTurns = result.droppedTurns;
    return { messages: result.messages, notice, estimatedTokens: result.estimatedTokens };
  }

  private toolsTooBigNotice(): string {
    const window = `${Math.round(this.windowTokens / 1000)}k`;
    const count = this.toolGroups.reduce((sum, group) => sum + group.count, 0);
    const largest = this.toolGroups[0];
    const who =
      largest && largest.prefix !== 'built-in'
        ? `; most are ${largest.prefix} (${digits(largest.count)} tools, about ${digits(largest.tokens)} tokens): "maxTools" in that MCP server's settings entry offers fewer`
        : '';
    return `(the definitions of the ${digits(count)} tools take about ${digits(this.toolTokens)} tokens, more than the ${window} context window leaves for them${who}; sending anyway, the model may refuse it)`;
  }

  /** A history that does not fit whole: the turns kept since the last eviction while they fit, else a new eviction. */
  private fitPart(messages: readonly ModelMessage[], budget: number): FitResult {
    const options: FitOptions = {
      windowTokens: this.windowTokens,
      reservedTokens: this.reservedTokens,
      estimate: (message) => this.count(message),
      userMessageCount: this.measures.userMessages(messages),
    };
    if (this.eviction === 'turns') return fitToWindow(messages, options);
    if (this.keptFrom !== undefined) {
      const kept = fitToWindow(messages, { ...options, keepFrom: this.keptFrom });
      if (kept.keptFrom === this.keptFrom) return kept;
    }
    const evicted = fitToWindow(messages, { ...options, keepFrom: this.keptFrom, keepTokens: Math.floor(budget * EVICT_TO_SHARE) });
    this.keptFrom = evicted.keptFrom;
    return evicted;
  }

  /** Learns from the provider's count of what was sent. */
  observe(sent: readonly ModelMessage[], usage: TokenUsage): void {
    if (usage.inputTokens <= 0) return;
    const last = this.lastFit;
    const raw = last !== undefined && sent === last.messages && sent.length === last.length ? last.rawTokens : this.rawEstimate(sent);
    this.calibration.observe(raw + this.reservedTokens, usage.inputTokens);
  }

  private count(message: ModelMessage): number {
    return this.calibration.apply(estimateMessageTokens(message));
  }

  private rawEstimate(messages: readonly ModelMessage[]): number {
    let total = 0;
    for (const message of messages) total += estimateMessageTokens(message);
    return total;
  }
}
