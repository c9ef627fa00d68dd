// What the REPL reads lines through — the terminal's editor or a pipe's reader — here, below both,
// so neither imports the other for it.

/** What a read gives back: a line, the end of input (Ctrl-D, EOF), or Ctrl-C. */
export type ReadResult = { kind: 'line'; line: string } | { kind: 'eof' } | { kind: 'interrupt'; hadText: boolean };

export interface LineReader {
  /** Shows `prompt` (on a terminal) and reads one line. */
  read(prompt: string, options?: { remember?: boolean }): Promise<ReadResult>;
  /** Input history, newest first, for saving. */
  readonly history: readonly string[];
  readonly interactive: boolean;
  /**
   * Ctrl-C or Esc pressed while nothing is being read (a turn runs), for readers that hold the
   * terminal; without it the caller listens for SIGINT. Returns the unsubscribe.
   */
  onInterrupt?(handler: () => void): () => void;
  close(): void;
}
