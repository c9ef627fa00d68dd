import type { ModelMessage } from 'ai';
import { measureMessage, type FitResult } from './context-window.ts';
import { estimateMessageTokens } from '../../shared/text/token-estimate.ts';

/** A fit of the whole history, and the raw (uncalibrated) estimate of what it keeps, for `observe`. */
export interface WholeFit extends FitResult {
  rawTokens: number;
}

/** Not estimated yet: a message is estimated when a fit first reaches it, not when it is appended. */
const UNKNOWN = -1;

/**
 * What a fit needs to know about one history, kept as the history grows instead of derived again
 * before every step: each message's raw token estimate (in an array, so a fit is one pass of
 * arithmetic, without a cache look-up or an object per message), where the first user message is,
 * and how many user messages there are.
 *
 * The history is the array the caller passes. It is taken to be append-only while it stays the same
 * array (as `Conversation` keeps it: /compact, a repair and /clear replace the array); a different
 * array, a shorter one, or a different message where the last one was, starts the measures again.
 */
export class HistoryMeasures {
  private source: readonly ModelMessage[] | undefined;
  private lastMessage: ModelMessage | undefined;
  private rawTokens: number[] = [];
  /** User messages among the first `usersCountedTo` messages; counted on demand, then kept as the history grows. */
  private users = 0;
  private usersCountedTo = 0;
  /** Index of the first user message, once one has been found among the first `firstUserSearchedTo`. */
  private firstUser = -1;
  private firstUserSearchedTo = 0;

  /**
   * Brings the measures up to `messages`: only the messages appended since the last call are new to
   * it. Returns false when `messages` is not the last history grown by appending, and so was measured anew.
   */
  sync(messages: readonly ModelMessage[]): boolean {
    const known = this.rawTokens.length;
    const appendedTo = messages === this.source && messages.length >= known && (known === 0 || messages[known - 1] === this.lastMessage);
    if (!appendedTo) {
      this.source = messages;
      this.rawTokens = new Array<number>(messages.length).fill(UNKNOWN);
      this.users = 0;
      this.usersCountedTo = 0;
      this.firstUser = -1;
      this.firstUserSearchedTo = 0;
    }
    for (let index = this.rawTokens.length; index < messages.length; index++) this.rawTokens.push(UNKNOWN);
    this.lastMessage = messages.at(-1);
    return appendedTo;
  }

  /** User messages in `messages` (the history last synced). */
  userMessages(messages: readonly ModelMessage[]): number {
    for (; this.usersCountedTo < messages.length; this.usersCountedTo++) {
      if (messages[this.usersCountedTo]?.role === 'user') this.users++;
    }
    return this.users;
  }

  /** The whole history's estimate, each message's raw estimate scaled by `ratio` as `TokenCalibration.apply` does. */
  scaledTotal(messages: readonly ModelMessage[], ratio: number): number {
    let total = 0;
    for (let index = 0; index < messages.length; index++) total += Math.ceil(this.raw(messages, index) * ratio);
    return total;
  }

  /**
   * What `fitToWindow` returns when the whole history (from its first user message) fits in `budget`,
   * or undefined when it does not (the caller then fits it turn by turn). `ratio` scales each raw
   * estimate as `TokenCalibration.apply` does; `cap` is `toolResultCap` of the window. Call `sync` first.
   * Walks from the newest message, as `fitToWindow` does, so a history that does not fit is given up
   * on after about a window's worth of messages, the ones the turn-by-turn fit estimates anyway.
   */
  fitWhole(messages: readonly ModelMessage[], budget: number, ratio: number, cap: number): WholeFit | undefined {
    const start = Math.max(0, this.firstUserIndex(messages));
    const calibrated = (message: ModelMessage) => Math.ceil(estimateMessageTokens(message) * ratio);
    let tokens = 0;
    let rawTokens = 0;
    let shortenedResults = 0;
    let shortened: Map<number, ModelMessage> | undefined;
    for (let index = messages.length - 1; index >= start; index--) {
      const raw = this.raw(messages, index);
      const scaled = Math.ceil(raw * ratio);
      const message = messages[index] as ModelMessage;
      if (scaled > cap && message.role === 'tool') {
        // Over the per-result cap: measured exactly as fitToWindow measures it (rare, and cached per message).
        const measured = measureMessage(message, cap, calibrated);
        tokens += measured.tokens;
        shortenedResults += measured.shortened;
        rawTokens += estimateMessageTokens(measured.message);
        if (measured.message !== message) (shortened ??= new Map()).set(index, measured.message);
      } else {
        tokens += scaled;
        rawTokens += raw;
      }
      if (tokens > budget) return undefined;
    }
    const kept = messages.slice(start);
    if (shortened) for (const [index, message] of shortened) kept[index - start] = message;
    return { messages: kept, droppedTurns: 0, droppedMessages: start, shortenedResults, estimatedTokens: tokens, rawTokens, keptFrom: start };
  }

  private firstUserIndex(messages: readonly ModelMessage[]): number {
    for (; this.firstUser < 0 && this.firstUserSearchedTo < messages.length; this.firstUserSearchedTo++) {
      if (messages[this.firstUserSearchedTo]?.role === 'user') this.firstUser = this.firstUserSearchedTo;
    }
    return this.firstUser;
  }

  private raw(messages: readonly ModelMessage[], index: number): number {
    let raw = this.rawTokens[index] as number;
    if (raw === UNKNOWN) raw = this.rawTokens[index] = estimateMessageTokens(messages[index] as ModelMessage);
    return raw;
  }
}
