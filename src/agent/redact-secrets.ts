import type { AgentEvent } from './events.ts';

/** Shorter pieces of a key are too likely to be ordinary text to be worth hiding on their own. */
const MIN_PIECE = 8;
export const REDACTED = '[redacted]';

/**
 * The forms a secret can take in text: itself, each of its lines (a key pasted with a newline is
 * quoted line by line in Node's header errors), and each of those escaped as inside a JSON string.
 */
function formsOf(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    for (const piece of [secret, secret.trim(), ...secret.split(/[\r\n]+/)]) {
      if (piece.trim().length < MIN_PIECE) continue;
      forms.add(piece);
      forms.add(JSON.stringify(piece).slice(1, -1));
    }
  }
  // Longest first, so a whole key is replaced before one of its lines.
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every configured secret (and each line of it) replaced by "[redacted]". Never throws. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const form of formsOf(secrets)) if (redacted.includes(form)) redacted = redacted.split(form).join(REDACTED);
  return redacted;
}

/**
 * `value` (a tool call's input, as the model wrote it) with the secrets scrubbed from its strings:
 * the call is shown to the user, and a model quoting a key must not put it on the screen.
 */
function redactValue(value: unknown, secrets: readonly string[]): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return value;
  }
  if (json === undefined) return value;
  const redacted = redactSecrets(json, secrets);
  if (redacted === json) return value;
  try {
    return JSON.parse(redacted) as unknown;
  } catch {
    return REDACTED;
  }
}

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
