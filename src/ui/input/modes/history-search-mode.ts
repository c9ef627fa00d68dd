import { HistorySearch } from '../history-search.ts';
import type { AreaContent } from '../input-area.ts';
import type { Key } from '../keys.ts';
import type { KeyMode } from './key-mode.ts';
import type { SharedInput } from './shared-input.ts';

/**
 * Ctrl-R at the message prompt, as readline takes it: typing and Backspace change the search, Ctrl-R
 * finds an older match, Esc / Ctrl-G / Ctrl-C cancel it with the buffer as it was. Any other key
 * ends the search with the match in the buffer and is not taken, so the prompt handles it as usual:
 * Enter sends the match and → or Home starts editing it.
 */
export class HistorySearchMode implements KeyMode {
  private readonly search: HistorySearch;

  constructor(
    private readonly shared: SharedInput,
    /** What Ctrl-R Ctrl-R searches for again: the last search's query, kept across searches. */
    private readonly memory: { lastSearch: string },
    private readonly hooks: { footer(): string[]; done(): void },
  ) {
    const { buffer } = shared;
    this.search = new HistorySearch(shared.history, { text: buffer.text, cursor: buffer.cursor });
  }

  handle(key: Key): boolean {
    const search = this.search;
    if (key.kind === 'text' || key.kind === 'paste') {
      search.type(key.text);
      return true;
    }
    switch (key.name) {
      case 'reverse-search':
        search.older(this.memory.lastSearch);
        return true;
      case 'backspace':
        search.back();
        return true;
      case 'escape':
      case 'interrupt':
      case 'edit-externally':
        this.shared.buffer.set(search.original.text, search.original.cursor);
        this.hooks.done();
        return true;
      default:
        if (search.query !== '') this.memory.lastSearch = search.query;
        this.shared.buffer.set(search.text, search.cursor);
        this.shared.historyIndex = -1;
        this.hooks.done();
        return false;
    }
  }

  render(): AreaContent {
    const search = this.search;
    return { prompt: search.prompt, text: search.text, cursor: search.cursor, display: this.shared.display, below: this.hooks.footer() };
  }
}
