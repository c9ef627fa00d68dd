import type { AgentEvent, StopReason } from '../agent/loop/events.ts';
import { loopHooks, type HookEvents } from '../hooks/loop-hooks.ts';

/** Claude Code's `notification_type` for "waiting for your input", so its hook files' matchers apply. */
const IDLE_PROMPT = 'idle_prompt';

export interface LongTurnNotification {
  hooks: HookEvents;
  /** A turn that ran at least this long is announced when it ends. */
  afterSeconds: number;
  /** Milliseconds; injectable for tests. */
  now?: () => number;
}

/**
 * The turn's events, unchanged; when the turn ends after running `afterSeconds` or more, the
 * Notification hooks hear that Sylvan waits for the user (`idle_prompt`), since whoever started a
 * long turn has likely looked away. Not after an interrupt: the user who pressed it is there.
 * Nothing waits for the hooks (the loop's own `notify`): the prompt is back meanwhile.
 */
export async function* notifyWhenLong(events: AsyncGenerator<AgentEvent, StopReason>, options: LongTurnNotification): AsyncGenerator<AgentEvent, StopReason> {
  const now = options.now ?? Date.now;
  const started = now();
  const stopReason = yield* events;
  const seconds = (now() - started) / 1000;
  if (stopReason !== 'aborted' && seconds >= options.afterSeconds) {
    loopHooks(options.hooks).notify(`Sylvan is waiting for your input (the turn took ${Math.round(seconds)} s)`, IDLE_PROMPT);
  }
  return stopReason;
}
