import type { AgentEvent, StopReason } from '../agent/loop/events.ts';

/** Where notices from the side come from: each call takes what it has (and holds it no more). */
export type NoticeSource = () => readonly string[];

/**
 * The one queue for notices that arise beside a turn — instruction files refused, an MCP server's
 * warning, checkpoints tidied or not taken, sessions not saved, the sandbox that cannot start.
 * They arrive whenever their work ends, often while an answer streams; the queue holds them until
 * a block is whole, so none lands inside an answer or between a tool line and its result.
 */
export class NoticeQueue {
  private readonly held: string[] = [];

  constructor(private readonly sources: readonly NoticeSource[]) {}

  /** Holds a notice until the next drain. */
  push(message: string): void {
    this.held.push(message);
  }

  /** Everything waiting, each source's in order, then those pushed; nothing is told twice. */
  take(): string[] {
    return [...this.sources.flatMap((source) => source()), ...this.held.splice(0)];
  }

  /** What `take` gives, as notice events. */
  *drain(): Generator<AgentEvent> {
    for (const message of this.take()) yield { type: 'notice', message };
  }
}

/**
 * The turn's events with the queue's notices placed between blocks: after each step's end (its
 * text, calls and results are all shown) and before the turn's end, once `settle` has let work
 * still under way (a checkpoint clean-up) add its notices. Never anywhere inside a step.
 */
export async function* noticesBetweenBlocks(
  events: AsyncGenerator<AgentEvent, StopReason>,
  queue: NoticeQueue,
  settle: () => Promise<void>,
): AsyncGenerator<AgentEvent, StopReason> {
  while (true) {
    const next = await events.next();
    if (next.done) {
      await settle();
      yield* queue.drain();
      return next.value;
    }
    if (next.value.type === 'turn-end') {
      await settle();
      yield* queue.drain();
    }
    yield next.value;
    if (next.value.type === 'step-end') yield* queue.drain();
  }
}
