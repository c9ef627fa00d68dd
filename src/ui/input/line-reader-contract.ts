// What the REPL reads lines through — the terminal's editor or a pipe's reader — here, below both,
// so neither imports the other for it.

/** One answer of a one-key menu: the key that picks it and what it says. */
export interface Choice {
  key: string;
  label: string;
}

/** What a read gives back: a line, the end of input (Ctrl-D, EOF), or Ctrl-C. */
export type ReadResult = { kind: 'line'; line: string } | { kind: 'eof' } | { kind: 'interrupt'; hadText: boolean };

/** What a one-key menu gives back: the chosen key, Esc, Ctrl-C, or the end of input. */
export type ChoiceResult = { kind: 'choice'; key: string } | { kind: 'escape' } | { kind: 'interrupt' } | { kind: 'eof' };

/** One row of a `pick` list. */
export interface PickItem {
  /** What the row is called (a session's first message); outside text, sanitised where drawn. */
  title: string;
  /** Shown dimmed after the title (age, turns, branch). */
  detail: string;
  /** Also matched by the filter, not shown (a folder, a branch). */
  keywords?: string;
}

/** A list to choose from by typing a filter. */
export interface PickRequest {
  /** Shown before the filter being typed. */
  prompt: string;
  items: readonly PickItem[];
  /** The end of the key row under the list: what Enter does and what Esc does ("resumes · Esc: a new session"). */
  hint: string;
}

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

/** What is typed while a turn runs, for the live area to draw under the answer. */
export interface TypeAhead {
  /**
   * The rows to show (styled, each at most `columns` wide): the queued messages, then the text being
   * typed under its prompt, and where the cursor goes — `rowsBelow` rows up from the last, at
   * `column`. No rows when nothing is typed or queued, or while the editor shows a prompt or a menu.
   */
  view(columns: number): { rows: string[]; cursor?: { rowsBelow: number; column: number } };
  /** Calls `changed` whenever `view` may give something else (a key was typed); returns the unsubscribe. */
  watch(changed: () => void): () => void;
  /** The queued messages go back into the input, in order and before what is being typed; nothing is sent. */
  takeBack(): void;
}

export interface LineReader {
  /** Shows `prompt` (on a terminal) and reads one line. */
  read(prompt: string, options?: ReadOptions): Promise<ReadResult>;
  /**
   * Readers that hold the terminal: shows `question` with `choices` under it and resolves as soon
   * as one key picks one (its `key`), or ↑/↓ and Enter do; Esc, Ctrl-C and Ctrl-D come back as such.
   */
  choose?(question: string, choices: readonly Choice[]): Promise<ChoiceResult>;
  /**
   * Readers that hold the terminal: shows `request.items` under a filter the user types (substring,
   * case-insensitive); ↑/↓ move, Enter resolves with the chosen item's index, Esc, Ctrl-C or Ctrl-D
   * with undefined.
   */
  pick?(request: PickRequest): Promise<number | undefined>;
  /** Readers that hold the terminal: gives it (cooked, our input paused) to `work`, a child that reads it itself, then takes it back. */
  lendTerminal?<T>(work: () => Promise<T>): Promise<T>;
  /** Input history, newest first, for saving. */
  readonly history: readonly string[];
  readonly interactive: boolean;
  /**
   * Ctrl-C or Esc pressed while nothing is being read (a turn runs), for readers that hold the
   * terminal; without it the caller listens for SIGINT. Returns the unsubscribe.
   */
  onInterrupt?(handler: () => void): () => void;
  /** Readers that hold the terminal: what is typed while a turn runs. */
  readonly typeAhead?: TypeAhead;
  /** Readers that hold the terminal: replaces the row under the message being typed (the status line), redrawn at once. */
  setFooter?(footer: string): void;
  /** Ctrl+O pressed while nothing is being read (a turn runs). Returns the unsubscribe. */
  onToggleOutput?(handler: () => void): () => void;
  /** Readers that hold the terminal: prints lines above the input being typed, which is drawn again under them. */
  interject?(lines: readonly string[]): void;
  close(): void;
  /** Readers that hold a terminal: it hung up, so a running turn is stopped and every read ends as at Ctrl-D. */
  hangUp?(): void;
  /** The terminal hung up. */
  readonly hungUp?: boolean;
}
