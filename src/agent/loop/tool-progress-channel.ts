import type { AgentEvent } from './events.ts';
import type { RetryNotice } from '../../providers/retry-notice.ts';

type SideEvent = Extract<AgentEvent, { type: 'tool-progress' | 'retry' | 'subagent' }>;

/**
 * A side channel for what happens while the loop waits: the live output of running tools, the
 * model request's retries and the events of subagents. A tool's `execute` returns only its result,
 * a retry happens inside the SDK's request and a subagent runs inside a `task` call, so they report
 * here and `merge` weaves the reports into the turn's event stream (`tool-progress`, `retry`,
 * `subagent`) while the loop waits. Reports made while no turn is being merged are dropped.
 */
export class ToolProgressChannel {
  private queue: SideEvent[] = [];
  private merging = false;
  private wake: (() => void) | undefined;

  /** Reports a running tool's latest output; safe to call at any time. */
  readonly report = (toolCallId: string, toolName: string, text: string): void => {
    this.push({ type: 'tool-progress', toolCallId, toolName, text });
  };

  /** Reports that the model request is about to be sent again; safe to call at any time. */
  readonly retry = (retry: RetryNotice): void => {
    this.push({ type: 'retry', ...retry });
  };

  /** Reports a running subagent's event; safe to call at any time. */
  readonly subagent = (event: Extract<AgentEvent, { type: 'subagent' }>): void => {
    this.push(event);
  };

  private push(event: SideEvent): void {
    if (!this.merging) return;
    this.queue.push(event);
    this.wake?.();
  }

  /** Yields the events of `turn` and, between them, the progress reported meanwhile; returns what `turn` returns. */
  async *merge<T>(turn: AsyncGenerator<AgentEvent, T>): AsyncGenerator<AgentEvent, T> {
    this.merging = true;
    let pending: Promise<IteratorResult<AgentEvent, T>> | undefined;
    let finished = false;
    try {
      while (true) {
        while (this.queue.length > 0) yield this.queue.shift()!;
        pending ??= turn.next();
        const progressed = new Promise<'progress'>((resolve) => {
          this.wake = () => resolve('progress');
        });
        const next = await Promise.race([pending, progressed]);
        this.wake = undefined;
        if (next === 'progress') continue;
        pending = undefined;
        if (next.done) {
          finished = true;
          return next.value;
        }
        yield next.value;
      }
    } finally {
      this.merging = false;
      this.queue = [];
      this.wake = undefined;
      if (!finished) await turn.return?.(undefined as T);
    }
  }
}
