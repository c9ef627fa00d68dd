import { displayWidth, padToWidth, wrapStyled } from '../../shared/text/display-width.ts';

/** Names and what they do: one list of `/help`. */
export type HelpRows = readonly (readonly [name: string, description: string])[];

/** Columns before a name, and between a name and its description. */
const INDENT = 2;
const GAP = 2;

/**
 * Lists of names and what they do, as `/help` prints them: every description starts in one column
 * (after the widest name of all the lists, measured in display columns), and a description too long
 * for its row wraps under its own column, never under the names. On a narrow terminal a name wider
 * than its share of the row stands alone and its description starts on the next row, in the same
 * column. Rows stay one column short of `width`; without a width (a pipe) nothing is wrapped. Names
 * and descriptions must already be sanitised; `style` styles each description row.
 */
export function helpSections(sections: readonly HelpRows[], width: number | undefined, style: (text: string) => string = (text) => text): string[][] {
  const widest = Math.max(0, ...sections.flat().map(([name]) => displayWidth(name)));
  const room = width === undefined ? Number.POSITIVE_INFINITY : width - 1;
  // The names may take half the row, and must leave the descriptions 20 columns.
  const nameColumn = Math.min(widest, Math.max(8, Math.floor((room - INDENT - GAP) / 2)), Math.max(0, room - INDENT - GAP - 20));
  const descriptionColumn = INDENT + nameColumn + GAP;
  const descriptionRoom = Math.max(10, room - descriptionColumn);
  const under = ' '.repeat(descriptionColumn);
  const layOut = ([name, description]: HelpRows[number]): string[] => {
    const described = (description === '' ? [''] : wrapStyled(description, descriptionRoom)).map((row) => (row === '' ? '' : style(row)));
    const named = `${' '.repeat(INDENT)}${name}`;
    if (displayWidth(name) > nameColumn) return [named, ...described.map((row) => `${under}${row}`)];
    return described.map((row, index) => `${index === 0 ? padToWidth(named, descriptionColumn) : under}${row}`.trimEnd());
  };
  return sections.map((rows) => rows.flatMap(layOut));
}
