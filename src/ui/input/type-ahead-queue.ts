/** A message sent with Enter while a turn ran (the text as typed, paste placeholders kept), or Ctrl-D. */
export type Queued = { kind: 'line'; text: string } | { kind: 'eof' };

/**
 * What was sent while a turn ran, waiting for the next prompt: each message is sent at a prompt of
 * its own once the turn completed, or taken back into the input when the turn was stopped. Also who
 * draws the typing meanwhile (the live area), told after every key.
 */
export class TypeAheadQueue {
  private entries: Queued[] = [];
  private readonly watchers = new Set<() => void>();

  push(entry: Queued): void {
    this.entries.push(entry);
  }

  shift(): Queued | undefined {
    return this.entries.shift();
  }

  /** The queued messages' texts, in order. */
  get lines(): string[] {
    return this.entries.flatMap((entry) => (entry.kind === 'line' ? [entry.text] : []));
  }

  /** Empties the queue and gives back its messages' texts; a queued Ctrl-D is dropped with the rest. */
  takeAll(): string[] {
    const lines = this.lines;
    this.entries = [];
    return lines;
  }

  watch(changed: () => void): () => void {
    this.watchers.add(changed);
    return () => this.watchers.delete(changed);
  }

  /** What is typed or queued changed: whoever draws it, draws it again. */
  changed(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}
