import { sanitizeLine } from '../../shared/text/sanitize.ts';
import type { Suggestion } from './completion.ts';
import { layOut, placeAfterResize, type Display, type Layout } from './layout.ts';
import { graphemes, graphemeWidth } from '../../shared/text/text-width.ts';
import { displayWidth } from '../../shared/text/display-width.ts';

/** What the area shows: the prompt, the text with its cursor, and rows under it (menus, hints). */
export interface AreaContent {
  prompt: string;
  text: string;
  cursor: number;
  display: Display;
  /** Rows above the prompt (an expanded tool result), each cut to the width; part of what is redrawn. */
  above?: readonly string[];
  below: string[];
}

/**
 * The rows of the screen the prompt and its input occupy, redrawn in place: each draw goes back to
 * the top of what the last one drew, clears to the end of the screen and writes everything again,
 * so what was printed above (the last answer, its usage line) is never touched.
 */
export class InputArea {
  private drawn: Layout | undefined;
  /** Columns of each row drawn above the prompt. */
  private aboveWidths: number[] = [];
  /** Rows between the top of the area and the cursor, when the terminal re-wrapped them. */
  private resizedRow: number | undefined;
  /** The area begins on the screen's first row (after Ctrl-L). */
  private atTop = false;

  constructor(
    private readonly output: { write(text: string): unknown; columns?: number },
    private readonly dim: (text: string) => string,
  ) {}

  columns(): number {
    return this.output.columns || 80;
  }

  layout(content: Pick<AreaContent, 'prompt' | 'text' | 'cursor' | 'display'>): Layout {
    return layOut(content.prompt, content.text, content.cursor, this.columns(), content.display);
  }

  /**
   * The next draw starts a new area at the cursor (a new prompt, or a cleared screen: `atTop`, the
   * area's first row is the screen's).
   */
  reset(options: { atTop?: boolean } = {}): void {
    this.drawn = undefined;
    this.resizedRow = undefined;
    this.aboveWidths = [];
    this.atTop = options.atTop === true;
  }

  /**
   * Erases from the area's first row down, the cursor left there. At the screen's top-left a plain
   * erase-below is a whole-screen clear to tmux, which (scroll-on-clear) keeps a copy of the screen
   * in its scrollback on every keystroke: there the first row is erased alone, the rest from the next.
   */
  private eraseBelow(): string {
    // Saved and restored rather than moved back up: on the last row the move down does nothing.
    return this.atTop ? '\x1b[K\x1b7\x1b[1B\x1b[J\x1b8' : '\x1b[J';
  }

  /**
   * Done with this area (its last draw is the line as sent): the cursor goes to the start of the
   * next row, and everything from there down is erased, so what is printed next (a command's lines)
   * lands on blank rows even if a row drawn before (a menu, the footer) outlived the last draw.
   */
  leave(): void {
    this.output.write('\r\n\x1b[J');
    this.reset();
  }

  /** Clears what the last draw wrote and leaves the cursor where the area began; the next draw starts anew. */
  erase(): void {
    const up = this.resizedRow ?? this.drawn?.cursor.row ?? 0;
    this.output.write(`\r${up > 0 ? `\x1b[${up}A` : ''}${this.eraseBelow()}`);
    this.reset({ atTop: this.atTop });
  }

  /** The terminal changed width: the rows drawn were re-wrapped, so the way back up is counted again. */
  resized(): void {
    if (!this.drawn) return;
    const columns = this.columns();
    const aboveRows = this.aboveWidths.reduce((sum, width) => sum + Math.max(1, Math.ceil(width / columns)), 0);
    this.resizedRow = aboveRows + placeAfterResize(this.drawn, columns).row;
    this.aboveWidths = [];
  }

  draw(content: AreaContent): void {
    const columns = this.columns();
    const layout = this.layout(content);
    const above = (content.above ?? []).map((row) => fitRow(row, columns - 1));
    const below = content.below.map((row) => fitRow(row, columns - 1));
    const up = this.resizedRow ?? (this.drawn ? this.aboveWidths.length + this.drawn.cursor.row : 0);
    let out = `\r${up > 0 ? `\x1b[${up}A` : ''}${this.eraseBelow()}`;
    out += [...above, ...layout.rows, ...below].join('\r\n');
    const back = layout.rows.length + below.length - 1 - layout.cursor.row;
    out += `\r${back > 0 ? `\x1b[${back}A` : ''}${layout.cursor.column > 0 ? `\x1b[${layout.cursor.column}C` : ''}`;
    this.output.write(out);
    this.drawn = layout;
    this.aboveWidths = above.map((row) => displayWidth(row));
    this.resizedRow = undefined;
  }

  /** One row of a menu: a command or a file name, and what it does. */
  suggestionRow(suggestion: Suggestion, withDescription = true, labelWidth = 12): string {
    const description = withDescription && suggestion.description ? `  ${this.dim(sanitizeLine(suggestion.description))}` : '';
    const label = sanitizeLine(suggestion.label);
    return `  ${label}${' '.repeat(Math.max(0, labelWidth - displayWidth(label)))}${description}`;
  }
}

/** Cuts a row (which may carry styling) to `columns` visible columns. */
function fitRow(row: string, columns: number): string {
  let used = 0;
  let kept = '';
  let styling = false;
  let styled = false;
  for (const grapheme of graphemes(row)) {
    if (grapheme === '\x1b') styling = styled = true;
    if (styling) {
      kept += grapheme;
      if (/[a-zA-Z]/.test(grapheme)) styling = false;
      continue;
    }
    used += graphemeWidth(grapheme);
    if (used > columns) return styled ? `${kept}\x1b[0m` : kept;
    kept += grapheme;
  }
  return kept;
}
