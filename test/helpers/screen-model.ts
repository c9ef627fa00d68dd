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
  const lines: string[] = [''];
  let row = 0;
  let column = 0;
  const text = bytes.replace(/\u001b\[[0-9;]*m/g, '');
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (character === '\u001b') {
      const match = /^\u001b\[(\d*)([ACJ])/.exec(text.slice(index));
      if (!match) throw new Error(`unexpected escape ${JSON.stringify(text.slice(index, index + 8))}`);
      if (match[2] === 'A') row = Math.max(0, row - Number(match[1] || 1));
      else if (match[2] === 'C') column += Number(match[1] || 1);
      else {
        lines[row] = Array.from(lines[row]!).slice(0, column).join('');
        lines.length = row + 1;
      }
      index += match[0].length - 1;
    } else if (character === '\r') {
      column = 0;
    } else if (character === '\n') {
      row += 1;
      column = 0;
      if (lines.length <= row) lines.push('');
    } else {
      const characters = Array.from(lines[row]!);
      while (characters.length < column) characters.push(' ');
      characters[column] = character;
      lines[row] = characters.join('');
      column += 1;
    }
  }
  return { lines, row, column };
}
