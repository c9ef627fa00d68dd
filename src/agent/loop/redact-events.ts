import type { AgentEvent } from './events.ts';
import { redactSecrets, redactValue } from '../../shared/redact-secrets.ts';

/**
 * An event with the secrets scrubbed from the text that can carry a server's or Node's words
 * (error lines, stacks, notices, tool errors and denials) and from tool calls' inputs, a
 * subagent's events alike. Other events are returned as they are.
 */
export function redactEvent(event: AgentEvent, secrets: readonly string[]): AgentEvent {
  if (secrets.length === 0) return event;
  const scrub = (text: string) => redactSecrets(text, secrets);
  switch (event.type) {
    case 'turn-end':
      return {
        ...event,
        ...(event.message !== undefined && { message: scrub(event.message) }),
        ...(event.debug !== undefined && { debug: scrub(event.debug) }),
      };
    case 'tool-call':
      return { ...event, input: redactValue(event.input, secrets) };
    case 'tool-error':
      return { ...event, error: scrub(event.error) };
    case 'tool-denied':
      return event.reason === undefined ? event : { ...event, reason: scrub(event.reason) };
    case 'notice':
      return { ...event, message: scrub(event.message) };
    case 'subagent':
      return { ...event, event: redactEvent(event.event, secrets) };
    default:
      return event;
  }
}

/** The same turn with every event passed through `redactEvent`; the stop reason is kept. */
export async function* redactTurn<RESULT>(events: AsyncGenerator<AgentEvent, RESULT>, secrets: readonly string[]): AsyncGenerator<AgentEvent, RESULT> {
  try {
    while (true) {
      const next = await events.next();
      if (next.done) return next.value;
      yield redactEvent(next.value, secrets);
    }
  } finally {
    await events.return(undefined as RESULT);
  }
}
