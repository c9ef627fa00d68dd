import type { ChalkInstance } from 'chalk';
import { wrapStyled } from '../../../shared/text/display-width.ts';

/** An open code fence at the start of the block being written: its indent, its marker and the language after it. */
const OPEN_FENCE = /^\n*( {0,3})(`{3,}|~{3,})[ \t]*([^\n`]*)(?:\n|$)/;

/**
 * The last rows (at most `maxRows`) of the block of an answer still being written, for the live
 * area (at most `width` columns each). Plain text keeps its leading spaces (a nested list line, an
 * indented line). An open code fence is drawn in the frame the finished block will have (`╭─ lang`,
 * then `│ ` before each line, indentation kept), so code keeps its shape while it streams and does
 * not jump when it completes. Only the last `maxRows` lines are wrapped (each makes a row at least),
 * so the cost does not grow with the block. Text must already be sanitised, tabs made spaces.
 */
export function pendingRows(pending: string, width: number, colour: ChalkInstance, maxRows: number): string[] {
  const fence = OPEN_FENCE.exec(pending);
  if (!fence) {
    return lastLines(pending, maxRows)
      .lines.flatMap((line) => wrapStyled(line, width, { keepIndent: true }))
      .slice(-maxRows);
  }
  const language = fence[3]!.trim().split(/\s+/)[0] ?? '';
  const indent = fence[1]!.length;
  const gutter = colour.dim('│ ');
  // One more line than rows: the row after the last newline is empty until its first character arrives.
  const { lines, whole } = lastLines(pending.slice(fence[0].length), maxRows + 1);
  if (lines.at(-1) === '') lines.pop();
  // A fence indented by n spaces takes up to n spaces off each of its lines, as CommonMark says.
  const unindent = new RegExp(`^ {0,${indent}}`);
  const rows = lines.flatMap((line) =>
    wrapStyled(line.replace(unindent, ''), Math.max(10, width - 2), { keepIndent: true }).map((part) => gutter + part),
  );
  return (whole ? [colour.dim(`╭─${language ? ` ${language}` : ''}`), ...rows] : rows).slice(-maxRows);
}

/** The last `count` lines of `text` (split at newlines), and whether they are all of it. */
function lastLines(text: string, count: number): { lines: string[]; whole: boolean } {
  let at = text.length;
  for (let found = 0; found < count; found++) {
    const newline = at > 0 ? text.lastIndexOf('\n', at - 1) : -1;
    if (newline < 0) return { lines: text.split('\n'), whole: true };
    at = newline;
  }
  return { lines: text.slice(at + 1).split('\n'), whole: false };
}
