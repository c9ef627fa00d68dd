import { sanitizeLine } from '../../../shared/text/sanitize.ts';
import { TAB_WIDTH } from '../../../shared/text/text-width.ts';
import { EditBuffer } from '../edit-buffer.ts';
import { InputArea } from '../input-area.ts';
import type { Key } from '../keys.ts';
import { plainDisplay, type Display } from '../layout.ts';
import { PastePlaceholders, withoutReserved } from '../paste-placeholders.ts';

/** Earlier input kept at most. */
const HISTORY_LIMIT = 500;

/**
 * What every key mode edits: the one buffer (the message being typed lives on in it while a
 * question or a menu is answered), the pastes shown by their labels, the history and the area.
 */
export class SharedInput {
  readonly buffer = new EditBuffer();
  readonly pastes = new PastePlaceholders();
  readonly area: InputArea;
  /** Earlier input, newest first. */
  history: string[];
  /** The history entry shown (-1: the draft), and the draft being typed before ↑ left it. */
  historyIndex = -1;
  draft = '';
  /** What the message prompt held when a question or a menu interrupted it. */
  private stashed: { text: string; cursor: number } | undefined;

  constructor(
    private readonly output: NodeJS.WriteStream,
    readonly dim: (text: string) => string,
    history: readonly string[],
  ) {
    this.history = [...history];
    this.area = new InputArea(output, dim);
  }

  /** How the area draws one grapheme of the buffer: pastes by their labels, tabs as spaces, controls made safe. */
  readonly display: Display = (grapheme) => {
    const label = this.pastes.label(grapheme);
    if (label !== undefined) return { text: this.dim(label), width: label.length };
    if (grapheme === '\t') return { text: ' '.repeat(TAB_WIDTH), width: TAB_WIDTH };
    const safe = sanitizeLine(grapheme);
    return safe === grapheme ? plainDisplay(grapheme) : { text: safe, width: [...safe].length };
  };

  write(text: string): void {
    this.output.write(text);
  }

  remember(line: string): void {
    if (line.trim() !== '' && this.history[0] !== line) this.history = [line, ...this.history].slice(0, HISTORY_LIMIT);
  }

  /** Keeps the message being typed aside (a question or a menu comes first), the buffer emptied. */
  stash(): void {
    this.stashed = { text: this.buffer.text, cursor: this.buffer.cursor };
    this.buffer.set('');
  }

  /** Puts back the message kept aside, if any. */
  unstash(): void {
    if (!this.stashed) return;
    this.buffer.set(this.stashed.text, this.stashed.cursor);
    this.stashed = undefined;
  }

  /** Editing keys shared by the visible prompt and invisible type-ahead. */
  edit(key: Key, multiline: boolean): void {
    if (key.kind === 'text') return this.buffer.insert(withoutReserved(key.text));
    if (key.kind === 'paste') {
      const pasted = this.pastes.add(key.text);
      return this.buffer.insert(multiline ? pasted : pasted.replace(/\n/g, ' '));
    }
    const buffer = this.buffer;
    const actions: Partial<Record<typeof key.name, () => void>> = {
      newline: () => multiline && buffer.insert('\n'),
      backspace: () => buffer.backspace(),
      delete: () => buffer.deleteForward(),
      'end-of-input': () => buffer.deleteForward(),
      'delete-word-before': () => buffer.deleteWordBefore(),
      left: () => buffer.left(),
      right: () => buffer.right(),
      home: () => buffer.home(),
      end: () => buffer.end(),
      'word-left': () => buffer.wordLeft(),
      'word-right': () => buffer.wordRight(),
      'kill-before': () => buffer.killBefore(),
      'kill-after': () => buffer.killAfter(),
    };
    actions[key.name]?.();
  }

  /** `\` + Enter: the backslash becomes a newline instead of sending. */
  continueLine(): boolean {
    const { text, cursor } = this.buffer;
    if (cursor === 0 || text[cursor - 1] !== '\\') return false;
    this.buffer.set(text.slice(0, cursor - 1) + text.slice(cursor), cursor - 1);
    this.buffer.insert('\n');
    return true;
  }

  /**
   * Empties the buffer and gives back the message it held, pastes put back. A question keeps the
   * pastes: the message it interrupted may still hold some.
   */
  take(forgetPastes = true): string {
    const line = this.pastes.expand(this.buffer.text);
    this.buffer.set('');
    if (forgetPastes) this.pastes.clear();
    this.historyIndex = -1;
    return line;
  }
}
