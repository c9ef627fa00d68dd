import { createInterface, type Completer, type Interface } from 'node:readline';

/** What a read gives back: a line, the end of input (Ctrl-D, EOF), or Ctrl-C. */
export type ReadResult = { kind: 'line'; line: string } | { kind: 'eof' } | { kind: 'interrupt'; hadText: boolean };

export interface LineReader {
  /** Shows `prompt` (on a terminal) and reads one line. */
  read(prompt: string, options?: { remember?: boolean }): Promise<ReadResult>;
  /** Input history, newest first, for saving. */
  readonly history: readonly string[];
  readonly interactive: boolean;
  close(): void;
}

/**
 * On a terminal, one readline interface per prompt: between prompts (while a turn runs) the
 * terminal is back in its normal mode, so Ctrl-C arrives as SIGINT and what the user types ahead
 * waits in the terminal's buffer for the next prompt, instead of being redrawn over the answer.
 */
export function createTerminalReader(options: {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  history: string[];
  completer?: Completer;
}): LineReader {
  let history = [...options.history];
  let current: Interface | undefined;

  return {
    interactive: true,
    get history() {
      return history;
    },
    read(prompt, readOptions = {}) {
      return new Promise<ReadResult>((resolve) => {
        const remember = readOptions.remember !== false;
        const rl = createInterface({
          input: options.input,
          output: options.output,
          terminal: true,
          history: remember ? history : [],
          historySize: 500,
          removeHistoryDuplicates: true,
          completer: remember ? options.completer : undefined,
          tabSize: 4,
        });
        current = rl;
        let settled = false;
        const settle = (result: ReadResult) => {
          if (settled) return;
          settled = true;
          if (remember) history = [...((rl as unknown as { history: string[] }).history ?? history)];
          current = undefined;
          rl.close();
          resolve(result);
        };
        rl.on('line', (line) => settle({ kind: 'line', line }));
        rl.on('SIGINT', () => {
          const hadText = rl.line.length > 0;
          options.output.write('\n');
          settle({ kind: 'interrupt', hadText });
        });
        rl.on('close', () => {
          if (!settled) options.output.write('\n');
          settle({ kind: 'eof' });
        });
        rl.setPrompt(prompt);
        rl.prompt();
      });
    },
    close() {
      current?.close();
    },
  };
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
