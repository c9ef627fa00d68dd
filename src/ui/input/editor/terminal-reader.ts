import { createCompleter, type CompleterOptions } from '../completion.ts';
import { lendTerminal } from '../terminal-modes.ts';
import type { LineReader } from '../line-reader-contract.ts';
import { LineEditor } from './line-editor.ts';

/**
 * On a terminal: Sylvan's own line editor (`src/ui/input/editor/`), which keeps the terminal in raw mode
 * for the whole session, so type-ahead during a turn is drawn by the live area under the answer
 * (never echoed into it) and held for the next prompt, and Ctrl-C or Esc then reach `onInterrupt`. Imported statically: a
 * prompt always needs it, and the build then puts it in the file that draws the prompt.
 */
export function createTerminalReader(options: {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  history: string[];
  /** The `/` commands and the workspace `@path` completes in. */
  completion?: CompleterOptions;
  dim?: (text: string) => string;
}): LineReader {
  const completer = options.completion && createCompleter(options.completion);
  const editor = new LineEditor({ ...options, completer });
  return Object.assign(editor, {
    async lendTerminal<T>(work: () => Promise<T>): Promise<T> {
      const takeBack = lendTerminal(options.input, options.output);
      try {
        return await work();
      } finally {
        takeBack();
      }
    },
  });
}
