import { sanitizeLine } from '../../shared/text/sanitize.ts';
import type { Key } from './keys.ts';
import type { Choice, ChoiceResult } from './line-reader-contract.ts';

/** How a menu was answered, and what stays on screen after its question. */
export interface MenuAnswer {
  result: ChoiceResult;
  shown: string;
}

/**
 * A menu answered by one key without Enter: a choice's key (or its number) picks it at once, ↑/↓
 * move the mark and Enter picks the marked one; Esc, Ctrl-C and Ctrl-D come back as such. Holds no
 * terminal: the line editor feeds it keys and draws its rows, as it does a `FilterList`.
 */
export class OneKeyMenu {
  private selected = 0;

  /** The question as the prompt it is drawn as, with the answer after it once there is one. */
  readonly prompt: string;

  constructor(
    question: string,
    private readonly choices: readonly Choice[],
  ) {
    this.prompt = `${question} `;
  }

  /** Applies one key: the answer once there is one, `moved` when the mark moved, else undefined. */
  handle(key: Key): MenuAnswer | 'moved' | undefined {
    const count = this.choices.length;
    if (key.kind === 'text') {
      const typed = key.text.trim().toLowerCase().charAt(0);
      const index = /^[1-9]$/.test(typed) ? Number(typed) - 1 : this.choices.findIndex((choice) => choice.key === typed);
      return index >= 0 && index < count ? this.picked(index) : undefined;
    }
    if (key.kind !== 'key') return undefined;
    switch (key.name) {
      case 'up':
      case 'down':
        this.selected = (this.selected + (key.name === 'up' ? count - 1 : 1)) % count;
        return 'moved';
      case 'return':
        return this.picked(this.selected);
      case 'escape':
        return { result: { kind: 'escape' }, shown: 'No (Esc)' };
      case 'interrupt':
        return { result: { kind: 'interrupt' }, shown: '' };
      case 'end-of-input':
        return { result: { kind: 'eof' }, shown: '' };
      default:
        return undefined;
    }
  }

  /** The choices under the question, the marked one first-class, the rest dimmed. */
  rows(dim: (text: string) => string): string[] {
    const rows = this.choices.map((choice, index) => {
      const row = `${choice.key}  ${sanitizeLine(choice.label)}`;
      return index === this.selected ? `❯ ${row}` : dim(`  ${row}`);
    });
    rows.push(dim('  (press a key, or ↑/↓ and Enter; Esc says no)'));
    return rows;
  }

  private picked(index: number): MenuAnswer {
    const choice = this.choices[index]!;
    return { result: { kind: 'choice', key: choice.key }, shown: choice.label };
  }
}
