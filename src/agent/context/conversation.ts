import type { ModelMessage } from 'ai';
import { boundDepth, nestsDeeperThan } from '../../shared/bounded-json.ts';

/** Called for every message that enters the history, in order; used to persist the session. */
export type MessageListener = (message: ModelMessage) => void;

/**
 * The conversation history: whole steps only, never a `system` message (the system prompt
 * travels as `instructions`). Messages are treated as immutable once appended, so per-message
 * token counts can be cached by identity.
 */
export class Conversation {
  private list: ModelMessage[];

  constructor(
    messages: ModelMessage[] = [],
    private readonly onAppend?: MessageListener,
  ) {
    this.list = [...messages];
  }

  get messages(): readonly ModelMessage[] {
    return this.list;
  }

  append(...messages: ModelMessage[]): void {
    for (const appended of messages) {
      // A model's 10,000-level arguments would overflow every later copy of the history (the SDK's included).
      const message = nestsDeeperThan(appended) ? (boundDepth(appended) as ModelMessage) : appended;
      this.list.push(message);
      this.onAppend?.(message);
    }
  }

  /** Replaces the whole history (after /compact, or a repair); the caller persists the change. */
  replace(messages: ModelMessage[]): void {
    this.list = [...messages];
  }

  get length(): number {
    return this.list.length;
  }
}
