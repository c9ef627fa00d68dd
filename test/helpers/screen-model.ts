/**
 * What a terminal would show after the renderer's bytes, for the few controls Sylvan's live rows
 * use: CR, LF, cursor up (CSI n A), erase to the end of the screen (CSI J). Styling is dropped;
 * any other escape fails the test, so an unexpected control is never silently ignored.
 */
export function screenAfter(bytes: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let column = 0;
  const text = bytes.replace(/\u001b\[[0-9;]*m/g, '');
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (character === '\u001b') {
      const match = /^\u001b\[(\d*)([AJ])/.exec(text.slice(index));
      if (!match) throw new Error(`unexpected escape ${JSON.stringify(text.slice(index, index + 8))}`);
      if (match[2] === 'A') row = Math.max(0, row - Number(match[1] || 1));
      else {
        lines[row] = lines[row]!.slice(0, column);
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
      const line = lines[row]!;
      const characters = Array.from(line);
      characters[column] = character;
      lines[row] = characters.join('');
      column += 1;
    }
  }
  return lines;
}
