/** A paste of more lines than this, or more characters, is shown as `[pasted N lines]`. */
export const MAX_SHOWN_PASTE_LINES = 3;
import { digits } from '../../shared/text/count-text.ts';
const MAX_SHOWN_PASTE_CHARS = 2_000;

// One code point per collapsed paste, from Supplementary Private Use Area-B: never typed, one grapheme
// each, so the cursor and Backspace treat a collapsed paste as one character.
const FIRST = 0x100000;
const RESERVED = /[\u{100000}-\u{10FFFF}]/gu;

/**
 * Long pastes stand in the edit buffer as one placeholder character each; the text they stand for
 * is put back when the message is sent.
 */
export class PastePlaceholders {
  private readonly pastes = new Map<string, string>();

  /** What to put into the buffer for pasted `text`: the text itself, or a placeholder when it is long. */
  add(text: string): string {
    const clean = normalizePaste(text);
    const lines = clean.split('\n').length;
    if (lines <= MAX_SHOWN_PASTE_LINES && clean.length <= MAX_SHOWN_PASTE_CHARS) return clean;
    const marker = String.fromCodePoint(FIRST + this.pastes.size);
    this.pastes.set(marker, clean);
    return marker;
  }

  /** `[pasted 12 lines]` for a placeholder, undefined for any other grapheme. */
  label(grapheme: string): string | undefined {
    const text = this.pastes.get(grapheme);
    if (text === undefined) return undefined;
    const lines = text.split('\n').length;
    return lines > 1 ? `[pasted ${lines} lines]` : `[pasted ${digits(text.length)} characters]`;
  }

  /** The buffer's text with every placeholder replaced by what was pasted. */
  expand(text: string): string {
    return text.replace(RESERVED, (marker) => this.pastes.get(marker) ?? '');
  }

  clear(): void {
    this.pastes.clear();
  }
}

/** Typed or pasted text with the placeholder range removed. */
export function withoutReserved(text: string): string {
  return text.replace(RESERVED, '');
}

/** Pasted line endings as `\n`. */
function normalizePaste(text: string): string {
  return withoutReserved(text).replace(/\r\n?/g, '\n');
}
