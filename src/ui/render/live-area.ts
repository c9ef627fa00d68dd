import { displayWidth, wrapStyled } from '../../shared/text/display-width.ts';
import type { Output } from './render.ts';

/** Where the cursor is left among the live rows: `rowsBelow` rows up from the last one, at `column`. */
export interface LiveCursor {
  rowsBelow: number;
  column: number;
}

/**
 * The bottom rows of a terminal that Sylvan redraws in place: the status line, a running tool's
 * latest output, the markdown block still being written, what the user types meanwhile. Everything
 * above it is printed once and never touched again. Each live row is cut to fit the width, and the
 * row the cursor was left on is kept, so erasing knows exactly how many rows to go back over;
 * `print` erases the live rows first, so they never reach the scrollback.
 */
export class LiveArea {
  private rows = 0;
  /** The row the cursor is on, counted from the first live row. */
  private cursorRow = 0;

  constructor(private readonly output: Output) {}

  /**
   * Replaces the live rows with `lines` (styled, one terminal row each after wrapping). The cursor
   * ends after the last row, or where `cursor` says (rows that fit the width are never wrapped, so
   * a caller that lays its rows out itself knows where that is).
   */
  show(lines: readonly string[], cursor?: LiveCursor): void {
    const width = this.width();
    const rows = lines.flatMap((line) => (displayWidth(line) <= width ? [line] : wrapStyled(line, width)));
    // Rows that scrolled off the top cannot be erased: keep the live part within the screen (a pty without a size says 0 rows).
    const screenRows = (this.output as { rows?: number }).rows;
    const maxRows = Math.max(3, (screenRows !== undefined && screenRows > 0 ? screenRows : 24) - 2);
    const kept = rows.slice(-maxRows);
    const below = Math.max(0, Math.min(cursor?.rowsBelow ?? 0, kept.length - 1));
    const moving = cursor ? `${below > 0 ? `\u001b[${below}A` : ''}\r${cursor.column > 0 ? `\u001b[${cursor.column}C` : ''}` : '';
    this.output.write(this.erasing() + kept.join('\n') + moving);
    this.rows = kept.length;
    this.cursorRow = kept.length - 1 - below;
  }

  /** Removes the live rows, leaving the cursor at the start of the first one. */
  clear(): void {
    if (this.rows === 0) return;
    this.output.write(this.erasing());
    this.rows = 0;
    this.cursorRow = 0;
  }

  /** Writes lasting text above the live rows (which are erased; show them again after). */
  print(text: string): void {
    this.output.write(this.erasing() + text);
    this.rows = 0;
    this.cursorRow = 0;
  }

  get active(): boolean {
    return this.rows > 0;
  }

  private erasing(): string {
    if (this.rows === 0) return '';
    const up = this.cursorRow > 0 ? `\u001b[${this.cursorRow}A` : '';
    return `\r${up}\u001b[J`;
  }

  private width(): number {
    return liveWidth(this.output);
  }
}

/**
 * The columns a live row may use: one short of the edge (a full row leaves the cursor waiting to
 * wrap, and the row count would be off by one). A pseudo-terminal that never had a size says 0: 80.
 */
export function liveWidth(output: Output): number {
  const columns = output.columns !== undefined && output.columns > 0 ? output.columns : 80;
  return Math.max(20, columns - 1);
}
