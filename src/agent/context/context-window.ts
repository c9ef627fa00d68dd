import type { ModelMessage } from 'ai';
import { estimateMessageTokens, estimateToolOutputTokens } from '../../shared/text/token-estimate.ts';
import { capToolResults, MIN_SHORTENED_RESULT_TOKENS } from './tool-result-shortening.ts';

import { isCompactionSummary } from '../../shared/compaction-summary.ts';


/** Share of the window one tool result may take before it is shortened, unless told otherwise. */
const DEFAULT_TOOL_RESULT_SHARE = 0.25;

export interface FitOptions {
  /** The model's context window, in tokens. */
  windowTokens: number;
  /** Tokens needed outside the history: instructions, tool definitions and room for the answer. */
  reservedTokens: number;
  /** Per-message estimate (default: the cached `estimateMessageTokens`). Should be cheap on repeat calls. */
  estimate?: (message: ModelMessage) => number;
  /** A tool result above this many tokens is shortened (default: a quarter of the window). */
  maxToolResultTokens?: number;
  /** How many user messages `messages` holds, when the caller keeps the count (saves a pass over the history). */
  userMessageCount?: number;
  /** No older message before this index is kept (the caller's earlier eviction point; default 0). */
  keepFrom?: number;
  /**
   * Older turns are kept only while the whole fit stays within this many tokens (default: the
   * budget). The current turn and the summary pair still get the whole budget.
   */
  keepTokens?: number;
}

export interface FitResult {
  /** The history to send: a new array; the input and its messages are never mutated. */
  messages: ModelMessage[];
  /** Whole turns left out (a turn is a user message and everything up to the next one). */
  droppedTurns: number;
  /** Messages left out, including any non-user messages before the first user message. */
  droppedMessages: number;
  /** Tool results whose text was shortened. */
  shortenedResults: number;
  /** Estimated tokens of `messages`; may exceed the budget when the current turn alone does not fit. */
  estimatedTokens: number;
  /** Index in the input of the oldest message kept after the summary pair (the current turn's start when no older turn is). */
  keptFrom: number;
}


/** A message as it would be sent: its tool results shortened to the cap when it is over it, and its tokens. */
export interface Measured {
  message: ModelMessage;
  tokens: number;
  shortened: number;
}

/** The per-result cap `fitToWindow` applies to every tool result (before any tighter cap for the current turn). */
export function toolResultCap(options: Pick<FitOptions, 'windowTokens' | 'maxToolResultTokens'>): number {
  return Math.max(
    MIN_SHORTENED_RESULT_TOKENS,
    Math.floor(options.maxToolResultTokens ?? options.windowTokens * DEFAULT_TOOL_RESULT_SHARE),
  );
}

/** One message measured against a per-result cap, with `estimate` counting it (and its shortened copy). */
export function measureMessage(message: ModelMessage, cap: number, estimate: (message: ModelMessage) => number): Measured {
  const tokens = estimate(message);
  if (message.role !== 'tool' || tokens <= cap) return { message, tokens, shortened: 0 };
  const capped = capToolResults(message, cap);
  if (capped.shortened === 0) return { message, tokens, shortened: 0 };
  return { message: capped.message, tokens: estimate(capped.message), shortened: capped.shortened };
}

/**
 * Fits a (repaired) history into `windowTokens - reservedTokens`. Priorities, highest first:
 * 1. the current turn (the last user message and everything after it) is always kept; when it does
 *    not fit, its tool results are shortened further, and if it still does not fit it is returned
 *    anyway (`estimatedTokens` then exceeds the budget; the caller reports it);
 * 2. the /compact summary pair (see `COMPACTION_SUMMARY_PREFIX`) when it opens the history;
 * 3. earlier turns, newest first, whole turns only: the first older turn that does not fit is
 *    dropped with everything before it.
 * Because only whole turns are dropped, a tool call and its results stay together, and the result
 * always starts with a user message (when the input has one). Every tool result over
 * `maxToolResultTokens` is shortened with a note. Walks from the end and stops at the first turn that
 * does not fit, using the (cached) per-message estimate once per visited message: O(n), no re-estimation.
 */
export function fitToWindow(messages: readonly ModelMessage[], options: FitOptions): FitResult {
  const estimate = options.estimate ?? estimateMessageTokens;
  const budget = Math.max(0, options.windowTokens - options.reservedTokens);
  const maxToolResultTokens = toolResultCap(options);
  const measure = (message: ModelMessage, cap: number): Measured => measureMessage(message, cap, estimate);

  const currentStart = Math.max(0, lastUserIndex(messages));
  let current = measureRange(messages, currentStart, messages.length, (message) => measure(message, maxToolResultTokens));
  if (sumTokens(current) > budget) {
    const cap = Math.min(maxToolResultTokens, capThatFits(messages, currentStart, current, budget));
    current = measureRange(messages, currentStart, messages.length, (message) => measure(message, cap));
  }
  let remaining = budget - sumTokens(current);

  const firstUser = firstUserIndex(messages, currentStart);
  let summary: Measured[] = [];
  let lowestOlderIndex = firstUser;
  if (firstUser >= 0 && isCompactionSummary(messages[firstUser])) {
    const summaryEnd = nextUserIndex(messages, firstUser + 1, currentStart);
    lowestOlderIndex = summaryEnd;
    const measured = measureRange(messages, firstUser, summaryEnd, (message) => measure(message, maxToolResultTokens));
    if (sumTokens(measured) <= remaining) {
      summary = measured;
      remaining -= sumTokens(measured);
    }
  }

  if (options.keepTokens !== undefined) remaining = Math.min(remaining, options.keepTokens - sumTokens(current) - sumTokens(summary));

  // Older turns, newest first: a turn is accepted only once its user message is reached.
  const older: Measured[] = [];
  let pending: Measured[] = [];
  let pendingTokens = 0;
  let keptFrom = currentStart;
  const oldest = Math.max(lowestOlderIndex, options.keepFrom ?? 0);
  for (let index = currentStart - 1; index >= oldest && lowestOlderIndex >= 0; index--) {
    const measured = measure(messages[index] as ModelMessage, maxToolResultTokens);
    pendingTokens += measured.tokens;
    if (pendingTokens > remaining) break;
    pending.push(measured);
    if (measured.message.role === 'user') {
      older.push(...pending);
      remaining -= pendingTokens;
      pending = [];
      pendingTokens = 0;
      keptFrom = index;
    }
  }
  older.reverse();

  const kept = [...summary, ...older, ...current];
  const keptUserMessages = countUsers(summary) + countUsers(older) + countUsers(current);
  return {
    messages: kept.map((measured) => measured.message),
    droppedTurns: (options.userMessageCount ?? countUserMessages(messages)) - keptUserMessages,
    droppedMessages: messages.length - kept.length,
    shortenedResults: kept.reduce((total, measured) => total + measured.shortened, 0),
    estimatedTokens: sumTokens(kept),
    keptFrom,
  };
}

/**
 * The largest per-result cap that lets the current turn fit, shrinking the biggest results first
 * (water-filling); never below `MIN_SHORTENED_RESULT_TOKENS`.
 */
function capThatFits(messages: readonly ModelMessage[], start: number, current: Measured[], budget: number): number {
  const sizes: number[] = [];
  for (let index = start; index < messages.length; index++) {
    const message = messages[index];
    if (message?.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') sizes.push(estimateToolOutputTokens(part.output));
    }
  }
  const resultTokens = sizes.reduce((total, size) => total + size, 0);
  const available = budget - (sumTokens(current) - resultTokens);
  const cappedTotal = (cap: number): number => sizes.reduce((total, size) => total + Math.min(size, cap), 0);
  let low = MIN_SHORTENED_RESULT_TOKENS;
  let high = Math.max(low, ...sizes);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (cappedTotal(middle) <= available) low = middle;
    else high = middle - 1;
  }
  return low;
}

function measureRange(
  messages: readonly ModelMessage[],
  start: number,
  end: number,
  measure: (message: ModelMessage) => Measured,
): Measured[] {
  const measured: Measured[] = [];
  for (let index = start; index < end; index++) measured.push(measure(messages[index] as ModelMessage));
  return measured;
}

function lastUserIndex(messages: readonly ModelMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'user') return index;
  }
  return -1;
}

/** First user message before `end`, or -1. */
function firstUserIndex(messages: readonly ModelMessage[], end: number): number {
  return nextUserIndex(messages, 0, end, -1);
}

function nextUserIndex(messages: readonly ModelMessage[], start: number, end: number, notFound = end): number {
  for (let index = start; index < end; index++) {
    if (messages[index]?.role === 'user') return index;
  }
  return notFound;
}

function countUserMessages(messages: readonly ModelMessage[]): number {
  let count = 0;
  for (const message of messages) if (message.role === 'user') count++;
  return count;
}

function countUsers(measured: readonly Measured[]): number {
  let count = 0;
  for (const item of measured) if (item.message.role === 'user') count++;
  return count;
}

function sumTokens(measured: readonly Measured[]): number {
  let total = 0;
  for (const item of measured) total += item.tokens;
  return total;
}
