import type { AgentEvent } from './events.ts';

type ProgressEvent = Extract<AgentEvent, { type: 'tool-progress' }>;

/**
 * A side channel for the live output of running tools. A tool's `execute` returns only its result,
 * so a running tool reports here and `merge` weaves the reports into the turn's event stream as
 * `tool-progress` events, while the approval round waits for the call. Reports made while no turn is
 * being merged are dropped.
 */
export class ToolProgressChannel {
  private queue: ProgressEvent[] = [];
  private merging = false;
  private wake: (() => void) | undefined;

  /** Reports a running tool's latest output; safe to call at any time. */
  readonly report = (toolCallId: string, toolName: string, text: string): void => {
    if (!this.merging) return;
    this.queue.push({ type: 'tool-progress', toolCallId, toolName, text });
    this.wake?.();
  };

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
