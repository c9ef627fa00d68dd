import type { ModelMessage, ToolSet } from 'ai';
import { ContextFitter } from '../agent/context/context-fitter.ts';
import { isCompactionSummary } from '../shared/compaction-summary.ts';
import type { Conversation } from '../agent/context/conversation.ts';
import type { TokenUsage } from '../shared/token-usage.ts';
import type { ContextMeter } from './runtime.ts';

/** Past this share of the room for history, the history is compacted before the next turn. */
const AUTO_COMPACT_SHARE = 0.8;
/** After automatic summaries failed this often in a row, the wait before the next stops doubling. */
const MOST_TURNS_BETWEEN_TRIES = 32;

/**
 * The context window and how full it is: the fitter that cuts each request to the window, the
 * provider's count of the last step, and when the history is due for a summary.
 */
export class WindowMeter implements ContextMeter {
  private fitterNow: ContextFitter;
  /** The provider's count of the last step's prompt and answer, the history it was counted on, and where that step's messages end in it. */
  private counted: { tokens: number; messages: readonly ModelMessage[]; upTo: number } | undefined;
  private turnsCounted: { messages: readonly ModelMessage[] | undefined; upTo: number; last: ModelMessage | undefined; turns: number } = {
    messages: undefined,
    upTo: 0,
    last: undefined,
    turns: 0,
  };
  /** Automatic summaries that failed in a row, the history they were tried on, and its turn count then. */
  private failedSummaries: { count: number; messages: readonly ModelMessage[]; atTurn: number } | undefined;

  constructor(
    private window: number,
    private readonly conversation: Conversation,
    private readonly eviction: 'turns' | 'chunks',
    reserved: { instructions: string; tools: ToolSet },
  ) {
    this.fitterNow = new ContextFitter(window, reserved.instructions, reserved.tools, { eviction });
  }

  get windowTokens(): number {
    return this.window;
  }

  /** Fits each request to the window; replaced when the window changes. */
  get fitter(): ContextFitter {
    return this.fitterNow;
  }

  /** Another window (the model changed): counted afresh, with room kept for `reserved`. */
  resize(window: number, reserved: { instructions: string; tools: ToolSet }): void {
    this.window = window;
    this.fitterNow = new ContextFitter(window, reserved.instructions, reserved.tools, { eviction: this.eviction });
  }

  /** The provider's usage of the step just appended: the history it was counted on is kept with it. */
  countStep(sent: readonly ModelMessage[], usage: TokenUsage): void {
    this.fitterNow.observe(sent, usage);
    const messages = this.conversation.messages;
    // The step's tool results (appended after its answer) were in neither count.
    const upTo = messages.length - (messages.at(-1)?.role === 'tool' ? 1 : 0);
    this.counted = usage.inputTokens > 0 ? { tokens: usage.inputTokens + usage.outputTokens, messages, upTo } : undefined;
  }

  contextShare(): number {
    return this.contextTokens() / this.window;
  }

  historyTokens(): number {
    return this.fitterNow.estimate(this.conversation.messages);
  }

  /**
   * Past 80% of the room for history, and with at least two turns since the last summary: a long
   * summary alone must not trigger a summary of itself before every turn. After automatic summaries
   * failed, the next waits 2, 4, 8 … (at most 32) turns more, until the history is replaced.
   */
  needsCompaction(): boolean {
    const messages = this.conversation.messages;
    const turns = this.turnsSinceSummary(messages);
    if (turns < 2 || this.fitterNow.historyShare(messages) <= AUTO_COMPACT_SHARE) return false;
    const failed = this.failedSummaries;
    if (failed === undefined || failed.messages !== messages) return true;
    return turns - failed.atTurn >= Math.min(2 ** failed.count, MOST_TURNS_BETWEEN_TRIES);
  }

  /**
   * How an automatic summary ended. A failure (the server refused it, or it was no shorter) puts off
   * the next try: each would cost a request that fails the same way, while each request is still
   * cut to the window without it.
   */
  summaryTried(ok: boolean): void {
    if (ok) {
      this.failedSummaries = undefined;
      return;
    }
    const messages = this.conversation.messages;
    const count = this.failedSummaries?.messages === messages ? this.failedSummaries.count + 1 : 1;
    this.failedSummaries = { count, messages, atTurn: this.turnsSinceSummary(messages) };
  }

  /**
   * User messages that are not a summary, counted only among the messages appended since the last
   * call: the history is append-only while it stays the same array (/compact, /clear and a repair
   * replace it), so a turn late in a long session does not walk the whole history for this.
   */
  private turnsSinceSummary(messages: readonly ModelMessage[]): number {
    const counted = this.turnsCounted;
    const appendedTo = counted.messages === messages && messages.length >= counted.upTo && (counted.upTo === 0 || messages[counted.upTo - 1] === counted.last);
    if (!appendedTo) this.turnsCounted = { messages, upTo: 0, last: undefined, turns: 0 };
    const state = this.turnsCounted;
    for (; state.upTo < messages.length; state.upTo++) {
      const message = messages[state.upTo]!;
      if (message.role === 'user' && !isCompactionSummary(message)) state.turns++;
    }
    state.last = messages.at(-1);
    return state.turns;
  }

  private contextTokens(): number {
    const messages = this.conversation.messages;
    const counted = this.counted;
    if (counted && counted.messages === messages && messages.length >= counted.upTo) {
      return counted.tokens + this.fitterNow.estimateMessages(messages.slice(counted.upTo));
    }
    return this.fitterNow.requestEstimate(messages);
  }
}
