import type { AgentEvent } from '../agent/loop/events.ts';
import { describeSources, type SearchSourceLog } from '../providers/dashscope-search.ts';

/** Passes a turn's events through, telling the user the sources DashScope searched before each step ends. */
export async function* withSearchSources<RESULT>(
  events: AsyncGenerator<AgentEvent, RESULT>,
  log: SearchSourceLog | undefined,
): AsyncGenerator<AgentEvent, RESULT> {
  if (!log) return yield* events;
  while (true) {
    const next = await events.next();
    if (next.done) return next.value;
    if (next.value.type === 'step-end' || next.value.type === 'turn-end') {
      const sources = log.take();
      if (sources.length > 0) yield { type: 'notice', message: describeSources(sources) };
    }
    yield next.value;
  }
}
