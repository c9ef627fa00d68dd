/**
 * What a terminal would show after the renderer's bytes, for the few controls Sylvan's live rows
 * use: CR, LF, cursor up (CSI n A), cursor forward (CSI n C), erase to the end of the screen
 * (CSI J). Styling is dropped; any other escape fails the test, so an unexpected control is never
 * silently ignored. Every character takes one column.
 */
export function screenAfter(bytes: string): string[] {
  return terminalAfter(bytes).lines;
}

/** The screen's lines and where the cursor was left (row and column from the top left). */
export function terminalAfter(bytes: string): { lines: string[]; row: number; column: number } {
  // Rows as arrays of characters, joined once at the end: rebuilding a row's string for each
  // character made a long answer's screen cost time quadratic in its rows' length.
  const rows: string[][] = [[]];
  let row = 0;
  let column = 0;
  const text = bytes.replace(/\u001b\[[0-9;]*m/g, '');
  const control = /\u001b\[(\d*)([ACJ])/y;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (character === '\u001b') {
      control.lastIndex = index;
      const match = control.exec(text);
      if (!match) throw new Error(`unexpected escape ${JSON.stringify(text.slice(index, index + 8))}`);
      if (match[2] === 'A') row = Math.max(0, row - Number(match[1] || 1));
      else if (match[2] === 'C') column += Number(match[1] || 1);
      else {
        rows[row]!.length = Math.min(rows[row]!.length, column);
        rows.length = row + 1;
      }
      index += match[0].length - 1;
    } else if (character === '\r') {
      column = 0;
    } else if (character === '\n') {
      row += 1;
      column = 0;
      if (rows.length <= row) rows.push([]);
    } else {
      const characters = rows[row]!;
      while (characters.length < column) characters.push(' ');
      // A surrogate pair is one character on screen, as Array.from would have read it.
      const code = character.charCodeAt(0);
      const whole = code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? character + text[++index] : character;
      characters[column] = whole;
      column += 1;
    }
  }
  return { lines: rows.map((characters) => characters.join('')), row, column };
}
