// What the REPL reads lines through — the terminal's editor or a pipe's reader — here, below both,
// so neither imports the other for it.
import type { Choice } from '../approval-menu.ts';

/** What a read gives back: a line, the end of input (Ctrl-D, EOF), or Ctrl-C. */
export type ReadResult = { kind: 'line'; line: string } | { kind: 'eof' } | { kind: 'interrupt'; hadText: boolean };

/** What a one-key menu gives back: the chosen key, Esc, Ctrl-C, or the end of input. */
export type ChoiceResult = { kind: 'choice'; key: string } | { kind: 'escape' } | { kind: 'interrupt' } | { kind: 'eof' };

export interface ReadOptions {
  /** False for a question (y/n, a reason): not kept in the input history, no type-ahead. */
  remember?: boolean;
  /** A row shown dimmed under the message being typed (the approval mode). */
  footer?: string;
  /** Shift+Tab at the message prompt: called, and the prompt and footer it returns replace the shown ones. */
  onShiftTab?: () => { prompt: string; footer?: string };
  /** Ctrl+O at the message prompt: the rows it returns are shown above the prompt, in place of any shown (none: hidden). */
  onToggleOutput?: () => readonly string[];
}

export interface LineReader {
  /** Shows `prompt` (on a terminal) and reads one line. */
  read(prompt: string, options?: ReadOptions): Promise<ReadResult>;
  /**
   * Readers that hold the terminal: shows `question` with `choices` under it and resolves as soon
   * as one key picks one (its `key`), or ↑/↓ and Enter do; Esc, Ctrl-C and Ctrl-D come back as such.
   */
  choose?(question: string, choices: readonly Choice[]): Promise<ChoiceResult>;
  /** Input history, newest first, for saving. */
  readonly history: readonly string[];
  readonly interactive: boolean;
  /**
   * Ctrl-C or Esc pressed while nothing is being read (a turn runs), for readers that hold the
   * terminal; without it the caller listens for SIGINT. Returns the unsubscribe.
   */
  onInterrupt?(handler: () => void): () => void;
  /** Ctrl+O pressed while nothing is being read (a turn runs). Returns the unsubscribe. */
  onToggleOutput?(handler: () => void): () => void;
  close(): void;
}
