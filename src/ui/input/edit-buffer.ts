import { graphemes } from '../../shared/text/text-width.ts';

let wordSegmenter: Intl.Segmenter | undefined;
/** Made on the first word move, not at start-up. */
const words = () => (wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' }));

/**
 * The text being edited and the cursor in it. The cursor is a UTF-16 index that always sits on a
 * grapheme boundary, so no key ever splits an emoji, a CJK character with its variation selector,
 * or a letter from its combining accent. Lines are separated by `\n`.
 */
export class EditBuffer {
  text = '';
  cursor = 0;

  set(text: string, cursor = text.length): void {
    this.text = text;
    this.cursor = cursor;
  }

  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  /** Grapheme boundaries of the whole text, 0 and text.length included. */
  boundaries(): number[] {
    const result = [0];
    let at = 0;
    for (const grapheme of graphemes(this.text)) result.push((at += grapheme.length));
    return result;
  }

  private previousBoundary(): number {
    const all = this.boundaries();
    for (let i = all.length - 1; i >= 0; i--) if (all[i]! < this.cursor) return all[i]!;
    return 0;
  }

  private nextBoundary(): number {
    for (const boundary of this.boundaries()) if (boundary > this.cursor) return boundary;
    return this.text.length;
  }

  left(): void {
    this.cursor = this.previousBoundary();
  }

  right(): void {
    this.cursor = this.nextBoundary();
  }

  backspace(): void {
    this.deleteRange(this.previousBoundary(), this.cursor);
  }

  deleteForward(): void {
    this.deleteRange(this.cursor, this.nextBoundary());
  }

  /** Start of the line the cursor is on. */
  lineStart(): number {
    return this.text.lastIndexOf('\n', this.cursor - 1) + 1;
  }

  /** End of the line the cursor is on (before its `\n`). */
  lineEnd(): number {
    const end = this.text.indexOf('\n', this.cursor);
    return end < 0 ? this.text.length : end;
  }

  home(): void {
    this.cursor = this.lineStart();
  }

  end(): void {
    this.cursor = this.lineEnd();
  }

  /** Ctrl-U: delete from the start of the line to the cursor. */
  killBefore(): void {
    this.deleteRange(this.lineStart(), this.cursor);
  }

  /** Ctrl-K: delete from the cursor to the end of the line. */
  killAfter(): void {
    this.deleteRange(this.cursor, this.lineEnd());
  }

  /** Where the word before the cursor starts (words as Intl.Segmenter sees them, so CJK too). */
  wordStartBefore(): number {
    let start = 0;
    for (const part of words().segment(this.text)) {
      if (part.index >= this.cursor) break;
      if (part.isWordLike) start = part.index;
    }
    return start;
  }

  /** Where the word after the cursor ends. */
  wordEndAfter(): number {
    for (const part of words().segment(this.text)) {
      const end = part.index + part.segment.length;
      if (part.isWordLike && end > this.cursor) return end;
    }
    return this.text.length;
  }

  wordLeft(): void {
    this.cursor = this.wordStartBefore();
  }

  wordRight(): void {
    this.cursor = this.wordEndAfter();
  }

  /** Ctrl-W: delete the word before the cursor and the spaces after it. */
  deleteWordBefore(): void {
    this.deleteRange(this.wordStartBefore(), this.cursor);
  }

  private deleteRange(from: number, to: number): void {
    if (to <= from) return;
    this.text = this.text.slice(0, from) + this.text.slice(to);
    this.cursor = from;
  }
}
