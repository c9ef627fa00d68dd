/** Where a search stands: the text searched for and the entry (newest first) it found it in. */
interface Found {
  query: string;
  /** Index into the history, -1 before anything was found. */
  entry: number;
  /** Where the match starts in that entry. */
  at: number;
  failed: boolean;
}

/**
 * Ctrl-R: readline's reverse incremental search through the input history (newest first). Each
 * typed character narrows the search from the current match towards older entries; Ctrl-R again
 * finds the next older entry holding the text (an entry equal to the one shown is skipped);
 * Backspace takes back the last character or Ctrl-R. Case-insensitive. Holds no terminal: the line editor feeds it
 * and draws `prompt`, `text` and `cursor`.
 */
export class HistorySearch {
  private found: Found = { query: '', entry: -1, at: 0, failed: false };
  private readonly steps: Found[] = [];

  constructor(
    private readonly entries: readonly string[],
    /** What the buffer held when the search began: shown until something is found, and restored on cancel. */
    readonly original: { text: string; cursor: number },
  ) {}

  get query(): string {
    return this.found.query;
  }

  /** The entry shown: the match, or the original buffer before one was found. */
  get text(): string {
    return this.found.entry >= 0 ? (this.entries[this.found.entry] ?? '') : this.original.text;
  }

  /** Where the cursor sits in `text`: at the start of the match. */
  get cursor(): number {
    return this.found.entry >= 0 ? Math.min(this.found.at, this.text.length) : this.original.cursor;
  }

  /** The line's prompt, as bash draws it: `(reverse-i-search)'text': ` (`failed` when nothing older matches). */
  get prompt(): string {
    return `(${this.found.failed ? 'failed ' : ''}reverse-i-search)'${this.found.query}': `;
  }

  /** Adds typed text to what is searched for, a character at a time (so Backspace takes back one); the current match is kept while it still matches. */
  type(text: string): void {
    for (const character of text.replace(/[\r\n]+/g, ' ')) this.step(this.found.query + character, Math.max(0, this.found.entry), false);
  }

  /** Ctrl-R again: the next older entry with the text; with nothing typed yet, `previous` (the last search) is searched for. */
  older(previous = ''): void {
    const query = this.found.query === '' ? previous : this.found.query;
    if (query === '') return;
    this.step(query, this.found.query === '' ? 0 : this.found.entry + 1, this.found.query !== '');
  }

  /** Backspace: back to where the search stood before the last character or Ctrl-R. */
  back(): void {
    this.found = this.steps.pop() ?? this.found;
  }

  private step(query: string, from: number, skipSame: boolean): void {
    this.steps.push(this.found);
    const shown = this.found.entry >= 0 ? this.text : undefined;
    for (let entry = from; entry < this.entries.length; entry++) {
      const text = this.entries[entry]!;
      if (skipSame && text === shown) continue;
      const at = indexIgnoringCase(text, query);
      if (at >= 0) {
        this.found = { query, entry, at, failed: false };
        return;
      }
    }
    this.found = { ...this.found, query, failed: true };
  }
}

/** The last place `query` occurs in `text`, ignoring case where lower-casing keeps the lengths (it nearly always does). */
function indexIgnoringCase(text: string, query: string): number {
  const lowerText = text.toLowerCase();
  const lowerQuery = query.toLowerCase();
  if (lowerText.length === text.length && lowerQuery.length === query.length) return lowerText.lastIndexOf(lowerQuery);
  return text.lastIndexOf(query);
}
