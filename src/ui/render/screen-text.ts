import { sanitize } from '../../shared/text/sanitize.ts';

/** Sanitised, with tabs as spaces: a tab's width depends on the column, and the live rows must know every width. */
export function forScreen(text: string): string {
  return sanitize(text).replace(/\t/g, '    ');
}

/**
 * A running command's output as a terminal would leave it: of a line redrawn with carriage returns
 * (a progress bar), only the last drawing; then sanitised like everything else.
 */
export function progressLines(text: string): string {
  return text
    .split('\n')
    .map((line) => forScreen(line.replace(/\r+$/, '').split('\r').at(-1) ?? ''))
    .join('\n');
}
