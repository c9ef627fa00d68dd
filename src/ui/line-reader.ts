import { createInterface } from 'node:readline';
import type { CompleterOptions } from './input/completion.ts';

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

/**
 * On a terminal: Sylvan's own line editor (`src/ui/input/`), which keeps the terminal in raw mode
 * for the whole session, so type-ahead during a turn is held for the next prompt instead of being
 * echoed over the answer, and Ctrl-C or Esc then reach `onInterrupt`. Loaded only for a terminal,
 * so piped runs never pay for it.
 */
export async function createTerminalReader(options: {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  history: string[];
  /** The `/` commands and the workspace `@path` completes in. */
  completion?: CompleterOptions;
  dim?: (text: string) => string;
}): Promise<LineReader> {
  const [{ LineEditor }, { createCompleter }] = await Promise.all([import('./input/line-editor.ts'), import('./input/completion.ts')]);
  const completer = options.completion && createCompleter(options.completion);
  return new LineEditor({ ...options, completer });
}

/**
 * For piped input: one line per read, in order, then end of input. Lines that arrive while a
 * turn runs wait their turn; nothing is dropped.
 */
export function createPipedReader(input: NodeJS.ReadableStream, echo?: (prompt: string, line: string) => void): LineReader {
  const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
  const queued: string[] = [];
  const waiting: ((result: ReadResult) => void)[] = [];
  let ended = false;

  rl.on('line', (line) => {
    const next = waiting.shift();
    if (next) next({ kind: 'line', line });
    else queued.push(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next({ kind: 'eof' });
  });

  return {
    interactive: false,
    history: [],
    read(prompt) {
      return new Promise<ReadResult>((resolve) => {
        const deliver = (result: ReadResult) => {
          if (result.kind === 'line') echo?.(prompt, result.line);
          resolve(result);
        };
        const line = queued.shift();
        if (line !== undefined) deliver({ kind: 'line', line });
        else if (ended) deliver({ kind: 'eof' });
        else waiting.push(deliver);
      });
    },
    close() {
      rl.close();
    },
  };
}
