import { cutToWidth } from '../../../shared/text/display-width.ts';
import { sanitizeLine } from '../../../shared/text/sanitize.ts';
import type { Key } from '../keys.ts';
import { layOut } from '../layout.ts';
import type { TypeAhead } from '../line-reader-contract.ts';
import { TypeAheadQueue } from '../type-ahead-queue.ts';
import type { KeyMode } from './key-mode.ts';
import type { SharedInput } from './shared-input.ts';

/**
 * Keys while a turn runs: edited in the buffer and drawn by the live area (not by the editor);
 * Enter queues the line as typed (a long paste stays a placeholder until it is sent, or taken
 * back). Ctrl-C and Esc reach the interrupt listeners, Ctrl+O the toggle-output ones.
 */
export class TypeAheadMode implements KeyMode {
  readonly queue = new TypeAheadQueue();
  readonly interruptListeners = new Set<() => void>();
  readonly toggleOutputListeners = new Set<() => void>();
  /** When Ctrl-C last stopped a turn (or whatever was running). */
  stoppedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly shared: SharedInput,
    private readonly now: () => number,
  ) {}

  handle(key: Key): boolean {
    const { buffer } = this.shared;
    if (key.kind === 'key' && (key.name === 'interrupt' || key.name === 'escape')) {
      if (key.name === 'interrupt' && this.interruptListeners.size > 0) this.stoppedAt = this.now();
      for (const listener of [...this.interruptListeners]) listener();
      return true;
    }
    if (key.kind === 'key' && key.name === 'toggle-output') {
      for (const listener of [...this.toggleOutputListeners]) listener();
      return true;
    }
    if (key.kind === 'key' && key.name === 'return') {
      if (!this.shared.continueLine()) {
        const text = buffer.text;
        buffer.set('');
        this.shared.historyIndex = -1;
        if (text.trim() !== '') this.queue.push({ kind: 'line', text });
      }
    } else if (key.kind === 'key' && key.name === 'end-of-input' && buffer.text === '') {
      this.queue.push({ kind: 'eof' });
    } else {
      this.shared.edit(key, true);
    }
    this.queue.changed();
    return true;
  }

  /** The live area draws the type-ahead: see `view`. */
  render(): undefined {
    return undefined;
  }

  /** The queued messages dimmed, one row each, then the text being typed under the message prompt. */
  view(columns: number, prompt: string): ReturnType<TypeAhead['view']> {
    const { buffer, dim, display } = this.shared;
    const rows = this.queue.lines.map((text) => dim(cutToWidth(`queued: ${this.summary(text)}`, columns)));
    if (buffer.text === '') return { rows };
    const layout = layOut(prompt, buffer.text, buffer.cursor, columns, display);
    return {
      rows: [...rows, ...layout.rows],
      cursor: { rowsBelow: layout.rows.length - 1 - layout.cursor.row, column: layout.cursor.column },
    };
  }

  /** The queued messages go back into the input, before what is being typed. */
  takeBack(): void {
    const lines = this.queue.takeAll();
    if (lines.length === 0) return;
    const { buffer } = this.shared;
    const text = [...lines, buffer.text].filter((line) => line !== '').join('\n');
    buffer.set(text, text.length);
    this.shared.historyIndex = -1;
    this.queue.changed();
  }

  /** A queued message on one row: its first line (pastes by their labels), and how many more. */
  private summary(text: string): string {
    const lines = text.split('\n');
    const first = [...lines[0]!].map((character) => this.shared.pastes.label(character) ?? character).join('');
    const more = lines.length > 1 ? ` (+${lines.length - 1} line${lines.length === 2 ? '' : 's'})` : '';
    return sanitizeLine(first) + more;
  }
}
