import type { ModelMessage, ToolSet } from 'ai';
import { ContextFitter } from '../agent/context-fitter.ts';
import { isCompactionSummary } from '../agent/context-window.ts';
import type { Conversation } from '../agent/conversation.ts';
import type { TokenUsage } from '../agent/events.ts';
import type { ContextMeter } from './runtime.ts';

/** Past this share of the room for history, the history is compacted before the next turn. */
const AUTO_COMPACT_SHARE = 0.8;

/**
 * The context window and how full it is: the fitter that cuts each request to the window, the
 * provider's count of the last step, and when the history is due for a summary.
 */
export class WindowMeter implements ContextMeter {
  private fitterNow: ContextFitter;
  /** The provider's count of the last step's prompt and answer, the history it was counted on, and where that step's messages end in it. */
  private counted: { tokens: number; messages: readonly ModelMessage[]; upTo: number } | undefined;

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
   * summary alone must not trigger a summary of itself before every turn.
   */
  needsCompaction(): boolean {
    const messages = this.conversation.messages;
    const turnsSinceSummary = messages.filter((message) => message.role === 'user' && !isCompactionSummary(message)).length;
    return turnsSinceSummary >= 2 && this.fitterNow.historyShare(messages) > AUTO_COMPACT_SHARE;
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
