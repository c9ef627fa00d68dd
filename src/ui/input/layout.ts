import { graphemes, graphemeWidth } from '../../shared/text/text-width.ts';

/** How one grapheme of the text is drawn: what to write and how many columns it takes. */
export type Display = (grapheme: string) => { text: string; width: number };

/** Where a cursor position (a UTF-16 index into the text) lands on screen. */
export interface Place {
  row: number;
  column: number;
}

export interface Layout {
  /** The rows to write, each at most `columns` wide. */
  rows: string[];
  /** Columns used in each row. */
  widths: number[];
  /** Every grapheme boundary of the text (UTF-16 index) and where it is drawn. */
  places: Map<number, Place>;
  cursor: Place;
}

export const plainDisplay: Display = (grapheme) => ({ text: grapheme, width: graphemeWidth(grapheme) });

/**
 * Lays the prompt and the text out in rows of at most `columns` columns. Wrapping happens here,
 * never in the terminal: every row is written on its own, so the editor always knows how many rows
 * it drew and where the cursor is. Lines after the first (typed newlines and wrapped parts) are
 * indented under the prompt when it is short. A position at the very end of a full row is moved to
 * the start of the next, since a terminal cannot show a cursor past the last column.
 */
export function layOut(prompt: string, text: string, cursor: number, columns: number, display: Display = plainDisplay): Layout {
  const width = Math.max(columns, 4);
  const rows: string[] = [''];
  const widths: number[] = [0];
  const places = new Map<number, Place>();
  let row = 0;
  let column = 0;

  const promptWidth = graphemes(prompt).reduce((sum, grapheme) => sum + graphemeWidth(grapheme), 0);
  const indent = promptWidth <= width / 2 ? promptWidth : 0;
  const newRow = () => {
    row++;
    rows.push(' '.repeat(indent));
    widths.push(indent);
    column = indent;
  };
  const put = (drawn: { text: string; width: number }) => {
    if (column + drawn.width > width && column > indent) newRow();
    rows[row] += drawn.text;
    column += drawn.width;
    widths[row] = column;
    if (column >= width) newRow();
  };

  // The prompt can hold outside text (a file name in an approval question): drawn the same safe way.
  for (const grapheme of graphemes(prompt)) put(display(grapheme));
  let index = 0;
  places.set(0, { row, column });
  for (const grapheme of graphemes(text)) {
    if (grapheme === '\n') newRow();
    else put(display(grapheme));
    index += grapheme.length;
    places.set(index, { row, column });
  }
  return { rows, widths, places, cursor: places.get(cursor) ?? { row, column } };
}

/**
 * The row-and-column place of the cursor after the terminal has re-wrapped rows drawn for another
 * width: each drawn row now takes ceil(width / columns) rows (terminals that re-wrap on resize do this).
 */
export function placeAfterResize(previous: Layout, columns: number): Place {
  let row = 0;
  for (let drawn = 0; drawn < previous.cursor.row; drawn++) row += Math.max(1, Math.ceil(previous.widths[drawn]! / columns));
  return { row: row + Math.floor(previous.cursor.column / columns), column: previous.cursor.column % columns };
}
