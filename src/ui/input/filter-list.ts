import { cutToWidth, displayWidth, fitItems, padToWidth } from '../../shared/text/display-width.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { EditBuffer } from './edit-buffer.ts';
import type { Key } from './keys.ts';
import type { PickRequest } from './line-reader-contract.ts';

/** Rows of the list shown at once; the selection scrolls them. */
const VISIBLE_ROWS = 10;

/** Case and width folded (`ＡＢＣ` finds `abc`), so a filter typed any way finds the text. */
const fold = (text: string) => text.normalize('NFKC').toLowerCase();

/**
 * A list narrowed by what is typed above it: the filter is a substring of an item's title or
 * keywords, case-insensitive (CJK and full-width text too). ↑/↓ move, Enter picks, Esc or Ctrl-C
 * cancels. Holds no terminal: the line editor feeds it keys and draws its rows.
 */
export class FilterList {
  readonly query = new EditBuffer();
  private readonly haystacks: string[];
  private matched: number[];
  private matchedFor = '';
  private selected = 0;
  private top = 0;

  constructor(private readonly request: PickRequest) {
    this.haystacks = request.items.map((item) => fold(`${item.title}\n${item.keywords ?? ''}`));
    this.matched = request.items.map((_, index) => index);
  }

  /** Item indices that match the filter, in the given order. */
  get matches(): readonly number[] {
    const wanted = fold(this.query.text.trim());
    if (wanted !== this.matchedFor) {
      this.matchedFor = wanted;
      this.matched = this.haystacks.flatMap((haystack, index) => (haystack.includes(wanted) ? [index] : []));
      this.selected = 0;
      this.top = 0;
    }
    return this.matched;
  }

  /** The item under the mark, if any matches. */
  get chosen(): number | undefined {
    return this.matches[this.selected];
  }

  /** Applies one key: `picked` once Enter chose an item, `cancelled` for Esc / Ctrl-C / Ctrl-D on an empty filter. */
  handle(key: Key): 'picked' | 'cancelled' | undefined {
    const query = this.query;
    if (key.kind === 'text' || key.kind === 'paste') {
      query.insert(key.text.replace(/[\r\n\t]+/g, ' '));
      return undefined;
    }
    const move = (by: number) => {
      const count = this.matches.length;
      if (count === 0) return;
      this.selected = Math.max(0, Math.min(count - 1, this.selected + by));
      if (this.selected < this.top) this.top = this.selected;
      if (this.selected >= this.top + VISIBLE_ROWS) this.top = this.selected - VISIBLE_ROWS + 1;
    };
    switch (key.name) {
      case 'return':
        return this.chosen === undefined ? undefined : 'picked';
      case 'escape':
      case 'interrupt':
        return 'cancelled';
      case 'end-of-input':
        if (query.text === '') return 'cancelled';
        query.deleteForward();
        return undefined;
      case 'up':
        return void move(-1);
      case 'down':
        return void move(1);
      case 'backspace':
        return void query.backspace();
      case 'delete':
        return void query.deleteForward();
      case 'delete-word-before':
        return void query.deleteWordBefore();
      case 'kill-before':
        return void query.killBefore();
      case 'kill-after':
        return void query.killAfter();
      case 'left':
        return void query.left();
      case 'right':
        return void query.right();
      case 'home':
        return void query.home();
      case 'end':
        return void query.end();
      default:
        return undefined;
    }
  }

  /**
   * The rows under the filter, at most `width` columns each: the visible items (the chosen one
   * marked `❯`), each title cut to fit beside its detail, then one dimmed row of counts and keys.
   */
  rows(width: number, dim: (text: string) => string): string[] {
    const matches = this.matches;
    const items = this.request.items;
    const total = items.length;
    if (matches.length === 0) {
      return [dim(`  nothing matches "${sanitizeLine(this.query.text.trim())}"`), dim(fitItems(`  0 of ${total} · ${this.request.hint}`, width))];
    }
    const shown = matches.slice(this.top, this.top + VISIBLE_ROWS).map((index) => items[index]!);
    const details = shown.map((item) => sanitizeLine(item.detail));
    const titles = shown.map((item) => sanitizeLine(item.title));
    const detailWidth = Math.min(Math.max(...details.map(displayWidth)), Math.floor(width / 2));
    const titleWidth = Math.max(10, Math.min(Math.max(...titles.map(displayWidth)), width - 4 - detailWidth));
    const rows = shown.map((_, row) => {
      const marker = this.top + row === this.selected ? '❯ ' : '  ';
      const title = padToWidth(cutToWidth(titles[row]!, titleWidth), titleWidth);
      return `${marker}${title}  ${dim(cutToWidth(details[row]!, Math.max(1, width - 4 - titleWidth)))}`;
    });
    const more = matches.length > shown.length ? `${this.selected + 1}/${matches.length} · ` : '';
    const counted = matches.length === total ? `${total}` : `${matches.length} of ${total}`;
    rows.push(dim(fitItems(`  ${more}${counted} · type to filter · ↑/↓ Enter ${this.request.hint}`, width)));
    return rows;
  }
}
