import type { ChalkInstance } from 'chalk';
import { displayWidth, padToWidth, wrapStyled } from '../../../shared/text/display-width.ts';

export type Alignment = 'left' | 'center' | 'right' | null;

/**
 * A table with box borders. Cells are styled text; columns are as wide as their widest cell by
 * display width (a CJK character counts two), and when the table is wider than `width` the widest
 * columns give way first and their cells wrap onto more lines.
 */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Alignment[],
  width: number,
  colour: ChalkInstance,
): string[] {
  const columns = Math.max(header.length, ...rows.map((row) => row.length));
  const cellAt = (row: readonly string[], index: number) => row[index] ?? '';
  const natural = Array.from({ length: columns }, (_, index) =>
    Math.max(1, displayWidth(cellAt(header, index)), ...rows.map((row) => displayWidth(cellAt(row, index)))),
  );
  const widths = fitColumns(natural, width - (3 * columns + 1));
  const border = (left: string, middle: string, right: string) =>
    colour.dim(left + widths.map((columnWidth) => '─'.repeat(columnWidth + 2)).join(middle) + right);
  const bar = colour.dim('│');

  const rowLines = (cells: readonly string[], style: (text: string) => string): string[] => {
    const wrapped = widths.map((columnWidth, index) => wrapStyled(cellAt(cells, index), columnWidth));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    return Array.from({ length: height }, (_, lineIndex) => {
      const parts = widths.map((columnWidth, index) => {
        const text = wrapped[index]![lineIndex] ?? '';
        return ` ${aligned(text === '' ? '' : style(text), columnWidth, align[index] ?? null)} `;
      });
      return `${bar}${parts.join(bar)}${bar}`;
    });
  };

  return [
    border('┌', '┬', '┐'),
    ...rowLines(header, colour.bold),
    border('├', '┼', '┤'),
    ...rows.flatMap((row) => rowLines(row, (text) => text)),
    border('└', '┴', '┘'),
  ];
}

function aligned(text: string, width: number, alignment: Alignment): string {
  const room = Math.max(0, width - displayWidth(text));
  if (alignment === 'right') return ' '.repeat(room) + text;
  if (alignment === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(Math.ceil(room / 2));
  return padToWidth(text, width);
}

/** Shrinks the widest columns one column at a time until they fit `room` (each keeps at least 2, a CJK character). */
function fitColumns(natural: readonly number[], room: number): number[] {
  const widths = [...natural];
  let total = widths.reduce((sum, columnWidth) => sum + columnWidth, 0);
  while (total > room) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= 2) break;
    widths[widest]! -= 1;
    total -= 1;
  }
  return widths;
}
