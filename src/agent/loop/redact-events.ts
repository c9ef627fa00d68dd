import type { AgentEvent } from './events.ts';
import { redactSecrets, redactValue, secretStartAtEnd } from '../../shared/redact-secrets.ts';

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

/**
 * The same turn with every event passed through `redactEvent`, and the answer's and the reasoning's
 * text scrubbed across the pieces it streams in: a key the model quotes never reaches a renderer,
 * whole or cut in two. The stop reason is kept.
 */
export async function* redactTurn<RESULT>(events: AsyncGenerator<AgentEvent, RESULT>, secrets: readonly string[]): AsyncGenerator<AgentEvent, RESULT> {
  const stream = new ScrubbedStream(secrets);
  try {
    while (true) {
      const next = await events.next();
      if (next.done) {
        yield* stream.flush();
        return next.value;
      }
      yield* stream.take(redactEvent(next.value, secrets));
    }
  } finally {
    await events.return(undefined as RESULT);
  }
}

/** A text or reasoning delta, the main agent's or a subagent's (wrapped). */
type Delta = { text: string; rebuild(text: string): AgentEvent; stream: string };

function deltaOf(event: AgentEvent): Delta | undefined {
  if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
    return { text: event.text, stream: event.type, rebuild: (text) => ({ ...event, text }) };
  }
  if (event.type === 'subagent') {
    const inner = deltaOf(event.event);
    if (inner) return { text: inner.text, stream: `${event.agentId} ${inner.stream}`, rebuild: (text) => ({ ...event, event: inner.rebuild(text) }) };
  }
  return undefined;
}

/**
 * Deltas of one stream at a time, scrubbed with what came before them: the end that could begin a
 * secret waits for the next piece. Any other event first sends what waits, so the order is kept.
 */
class ScrubbedStream {
  private held: Delta | undefined;

  constructor(private readonly secrets: readonly string[]) {}

  *take(event: AgentEvent): Generator<AgentEvent> {
    const delta = this.secrets.length === 0 ? undefined : deltaOf(event);
    if (delta === undefined) {
      yield* this.flush();
      yield event;
      return;
    }
    const joined = this.held?.stream === delta.stream ? this.held.text + delta.text : delta.text;
    if (this.held?.stream !== delta.stream) yield* this.flush();
    const text = redactSecrets(joined, this.secrets);
    const kept = secretStartAtEnd(text, this.secrets);
    if (kept < text.length) yield delta.rebuild(text.slice(0, text.length - kept));
    this.held = kept > 0 ? { ...delta, text: text.slice(text.length - kept) } : undefined;
  }

  *flush(): Generator<AgentEvent> {
    const held = this.held;
    this.held = undefined;
    if (held) yield held.rebuild(held.text);
  }
}
