import type { SessionUpdate } from '@agentclientprotocol/sdk';

type TextKind = 'agent_message_chunk' | 'agent_thought_chunk';

/** Past this, text with no break in it is sent anyway: no key is this long. */
const MAX_HELD = 512;

/**
 * Streams the answer and the thoughts in whole words: a chunk is sent up to its last whitespace and
 * the rest waits for the next one, so a key the model quotes never arrives cut in two pieces
 * that the scrubber could not recognise. Anything else first sends what is held.
 */
export class WholeWords {
  private kind: TextKind | undefined;
  private held = '';

  /** What to send now for `update`, in order. */
  take(update: SessionUpdate): SessionUpdate[] {
    const text = (update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'agent_thought_chunk') && update.content.type === 'text' ? update.content.text : undefined;
    if (text === undefined) return [...this.flush(), update];
    const kind = update.sessionUpdate as TextKind;
    const sent = kind === this.kind ? [] : this.flush();
    this.kind = kind;
    this.held += text;
    const cut = this.held.length > MAX_HELD ? this.held.length : lastBreak(this.held);
    if (cut > 0) {
      sent.push(chunk(kind, this.held.slice(0, cut)));
      this.held = this.held.slice(cut);
    }
    return sent;
  }

  /** Whatever is held, as one chunk. */
  flush(): SessionUpdate[] {
    const kind = this.kind;
    const text = this.held;
    this.held = '';
    return kind && text !== '' ? [chunk(kind, text)] : [];
  }
}

const chunk = (kind: TextKind, text: string): SessionUpdate => ({ sessionUpdate: kind, content: { type: 'text', text } });

/** Just past the last whitespace, or 0 when there is none. */
function lastBreak(text: string): number {
  for (let index = text.length - 1; index >= 0; index--) if (/\s/.test(text[index]!)) return index + 1;
  return 0;
}
