import type { ChalkInstance } from 'chalk';
import { wrapStyled } from '../display-width.ts';

/** An open code fence at the start of the block being written: its indent, its marker and the language after it. */
const OPEN_FENCE = /^\n*( {0,3})(`{3,}|~{3,})[ \t]*([^\n`]*)(?:\n|$)/;

/**
 * The block of an answer still being written, as rows for the live area (at most `width` columns
 * each). Plain text keeps its leading spaces (a nested list line, an indented line). An open code
 * fence is drawn in the frame the finished block will have (`╭─ lang`, then `│ ` before each line,
 * indentation kept), so code keeps its shape while it streams and does not jump when it completes.
 * Text must already be sanitised, tabs made spaces.
 */
export function pendingRows(pending: string, width: number, colour: ChalkInstance): string[] {
  const fence = OPEN_FENCE.exec(pending);
  if (!fence) return pending.split('\n').flatMap((line) => wrapStyled(line, width, { keepIndent: true }));
  const language = fence[3]!.trim().split(/\s+/)[0] ?? '';
  const indent = fence[1]!.length;
  const body = pending.slice(fence[0].length);
  const gutter = colour.dim('│ ');
  // A fence indented by n spaces takes up to n spaces off each of its lines, as CommonMark says.
  const lines = body.split('\n').map((line) => line.replace(new RegExp(`^ {0,${indent}}`), ''));
  // The row after the last newline is empty until its first character arrives.
  if (lines.at(-1) === '') lines.pop();
  return [
    colour.dim(`╭─${language ? ` ${language}` : ''}`),
    ...lines.flatMap((line) => wrapStyled(line, Math.max(10, width - 2), { keepIndent: true }).map((part) => gutter + part)),
  ];
}
