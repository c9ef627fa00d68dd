/**
 * The one gate every string from outside Sylvan passes before it reaches the terminal: model text
 * and reasoning, tool inputs and outputs, file names, server error text, session files, MCP output.
 * Nothing it returns can move the cursor, clear the screen, set the title, write the clipboard or
 * reorder text: every control character is shown as a visible symbol instead of acting. Sylvan's
 * own styling is added after sanitising, never before.
 */

export interface SanitizeOptions {
  /** Keep `\n` as a line break (default). False shows it as `␊`, for one-line displays. */
  keepNewlines?: boolean;
  /** Keep `\t` (default). False shows it as `␉`. */
  keepTabs?: boolean;
}

const CONTROL_PICTURES_START = 0x2400;

/** Visible stand-in for one control character. */
function visible(code: number): string {
  if (code < 0x20) return String.fromCodePoint(CONTROL_PICTURES_START + code); // ␛ ␍ ␇ …
  if (code === 0x7f) return '␡';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`; // C1 and bidi controls
}

// Everything that can act on a terminal: C0, DEL, C1, and the bidi marks, embeddings, overrides
// and isolates that reorder what follows them on screen; also the invisible ones that hide text
// from the reader (a mid-text byte-order mark, Unicode tag characters). A CR right before LF is
// a Windows line end, not an overwrite: kept as the line break.
const UNSAFE = /\r\n|[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu;

export function sanitize(text: string, options: SanitizeOptions = {}): string {
  const keepNewlines = options.keepNewlines ?? true;
  const keepTabs = options.keepTabs ?? true;
  return text.replace(UNSAFE, (character) => {
    if (character === '\r\n') return keepNewlines ? '\n' : '␍␊';
    const code = character.codePointAt(0)!;
    if (code === 0x0a && keepNewlines) return character;
    if (code === 0x09 && keepTabs) return character;
    return visible(code);
  });
}

/** For one-line displays (a tool call, a file name, a status): newlines and tabs shown too. */
export function sanitizeLine(text: string): string {
  return sanitize(text, { keepNewlines: false, keepTabs: false });
}
