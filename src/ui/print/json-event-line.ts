import type { AgentEvent } from '../../agent/loop/events.ts';
import { stringifyBounded } from '../../shared/bounded-json.ts';

/**
 * One `--json` line for an event: the `debug` stack only with SYLVAN_DEBUG=1, values nested too
 * deep shortened rather than crashing. Never throws. JSON.stringify escapes C0 controls but leaves
 * DEL, C1 and the bidi controls raw; they are escaped too (the same string to a JSON reader), so
 * the line is safe to show in a terminal, and U+2028/U+2029 cannot split it for a line reader.
 */
export function jsonEventLine(event: AgentEvent, debug: boolean): string {
  // A subagent's event is its own event, tagged: `agentId`, `agent` and the `task` call it runs in.
  if (event.type === 'subagent') {
    const inner = JSON.parse(jsonEventLine(event.event, debug)) as Record<string, unknown>;
    return jsonEventLine({ ...inner, agentId: event.agentId, agent: event.agent, parentToolCallId: event.toolCallId } as unknown as AgentEvent, debug);
  }
  let shown: AgentEvent = event;
  if (event.type === 'turn-end' && event.debug !== undefined && !debug) {
    const { debug: _stack, ...rest } = event;
    shown = rest;
  }
  try {
    return escapeUnsafe(stringifyBounded(shown));
  } catch {
    return JSON.stringify({ type: shown.type, unserializable: true });
  }
}

function escapeUnsafe(json: string): string {
  return json.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (character) => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}
