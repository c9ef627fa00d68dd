import type { ChalkInstance } from 'chalk';
import { cutToWidth, wrapStyled } from '../../shared/text/display-width.ts';
import { formatCall } from '../../shared/text/call-text.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { outputText, type ToolCallRecord } from './tool-calls.ts';
import { countOf } from '../../shared/text/count-text.ts';

/** Rows an expanded result may take on a screen of `rows`: the prompt, the row under it and a margin stay in view. */
export function expandRoom(rows: number | undefined): number {
  return Math.max(6, (rows !== undefined && rows > 0 ? rows : 24) - 6);
}

/** Each line of the call's whole output, sanitised (a line redrawn with `\r` shows its last drawing), wrapped to `width`. */
function wrappedLines(record: ToolCallRecord, width: number): string[][] {
  return outputText(record)
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => {
      const drawn = line.replace(/\r+$/, '').split('\r').at(-1) ?? '';
      return wrapStyled(sanitizeLine(drawn.replace(/\t/g, '    ')), width, { keepIndent: true });
    });
}

/** The output takes more than `maxRows` rows at `width` columns: too long to show in place, so it is saved to a file. */
export function isTooLongToShow(record: ToolCallRecord, width: number, maxRows: number): boolean {
  let rows = 1;
  for (const line of wrappedLines(record, width - 2)) if ((rows += line.length) > maxRows) return true;
  return false;
}

/**
 * What Ctrl+O shows of a call: a dimmed heading naming it, then every line of its output, at most
 * `maxRows` rows in all. A longer output shows its first rows and then where the whole of it is.
 */
export function expandedRows(record: ToolCallRecord, colour: ChalkInstance, width: number, maxRows: number): string[] {
  const lines = wrappedLines(record, width - 2);
  const about = ` · ${countOf(lines.length, 'line')} · ctrl+o to collapse`;
  const heading = colour.dim(`⎿ ${cutToWidth(formatCall(record.toolName, record.input), width - 2 - about.length)}${about}`);
  const rows = [heading];
  const total = lines.reduce((sum, line) => sum + line.length, 0);
  if (total + 1 <= maxRows) {
    for (const line of lines) for (const row of line) rows.push(`  ${row}`);
    return rows;
  }
  // The way to the rest is written last, and room is kept for it.
  const tail = (more: number) =>
    record.savedAt
      ? [`  … ${moreLines(more)}; all of it is in`, ...wrapStyled(sanitizeLine(record.savedAt), width - 4).map((row) => `    ${row}`)]
      : [`  … ${moreLines(more)}; /last prints all of it`];
  const room = maxRows - tail(0).length;
  let shown = 0;
  for (const line of lines) {
    if (rows.length + line.length > room) break;
    for (const row of line) rows.push(`  ${row}`);
    shown++;
  }
  return [...rows, ...tail(lines.length - shown).map((row) => colour.dim(row))];
}

const moreLines = (count: number) => countOf(count, 'more line');
