import type { AgentEvent } from '../agent/events.ts';
import { stringifyBounded } from '../agent/bounded-json.ts';

/**
 * One `--json` line for an event: the `debug` stack only with SYLVAN_DEBUG=1, values nested too
 * deep shortened rather than crashing. Never throws.
 */
export function jsonEventLine(event: AgentEvent, debug: boolean): string {
  let shown: AgentEvent = event;
  if (event.type === 'turn-end' && event.debug !== undefined && !debug) {
    const { debug: _stack, ...rest } = event;
    shown = rest;
  }
  try {
    return stringifyBounded(shown);
  } catch {
    return JSON.stringify({ type: shown.type, unserializable: true });
  }
}
