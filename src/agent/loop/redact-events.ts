import type { AgentEvent } from './events.ts';
import { redactSecrets, redactValue, secretStartAtEnd, SHOWN_LEAD } from '../../shared/redact-secrets.ts';

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

/** A short end held back (three characters or fewer that could begin a key) shows after this long without a next piece. */
const SHORT_HOLD_MS = 150;

/**
 * The same turn with every event passed through `redactEvent`, and the answer's and the reasoning's
 * text scrubbed across the pieces it streams in: a key the model quotes never reaches a renderer,
 * whole or cut in two (at most its first three characters, when the stream stalls right after
 * them). The stop reason is kept.
 */
export async function* redactTurn<RESULT>(events: AsyncGenerator<AgentEvent, RESULT>, secrets: readonly string[]): AsyncGenerator<AgentEvent, RESULT> {
  const stream = new ScrubbedStream(secrets);
  let pending: Promise<IteratorResult<AgentEvent, RESULT>> | undefined;
  try {
    while (true) {
      pending ??= events.next();
      const next = stream.holdsShortEnd() ? await withinShortHold(pending) : await pending;
      if (next === undefined) {
        yield* stream.releaseShortEnd();
        continue;
      }
      pending = undefined;
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

/** `next`, or undefined when it has not come within SHORT_HOLD_MS. */
async function withinShortHold<T>(next: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), SHORT_HOLD_MS)));
  try {
    return await Promise.race([next, late]);
  } finally {
    clearTimeout(timer);
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
  /** How much of the key that may have begun is shown or held (the held text's end, with `shownTail`). */
  private keyStart = 0;
  /** The last characters this stream showed: with what follows they may begin a key. */
  private shownTail = '';
  private stream: string | undefined;

  constructor(private readonly secrets: readonly string[]) {}

  *take(event: AgentEvent): Generator<AgentEvent> {
    const delta = this.secrets.length === 0 ? undefined : deltaOf(event);
    if (delta === undefined || delta.stream !== this.stream) yield* this.flush();
    if (delta === undefined) {
      yield event;
      return;
    }
    if (delta.stream !== this.stream) this.shownTail = '';
    this.stream = delta.stream;
    const text = redactSecrets((this.held?.text ?? '') + delta.text, this.secrets);
    this.keyStart = secretStartAtEnd(this.shownTail + text, this.secrets);
    const kept = Math.min(text.length, this.keyStart);
    yield* this.show(delta, text.slice(0, text.length - kept));
    this.held = kept > 0 ? { ...delta, text: text.slice(text.length - kept) } : undefined;
  }

  /** Whether what waits is at most the first three characters of a key: they may show after a pause. */
  holdsShortEnd(): boolean {
    return this.held !== undefined && this.keyStart <= SHOWN_LEAD;
  }

  *releaseShortEnd(): Generator<AgentEvent> {
    const held = this.held;
    this.held = undefined;
    if (held) yield* this.show(held, held.text);
  }

  *flush(): Generator<AgentEvent> {
    const held = this.held;
    this.held = undefined;
    this.stream = undefined;
    if (held) yield held.rebuild(held.text);
  }

  private *show(delta: Delta, text: string): Generator<AgentEvent> {
    if (text === '') return;
    this.shownTail = (this.shownTail + text).slice(-SHOWN_LEAD);
    yield delta.rebuild(text);
  }
}
