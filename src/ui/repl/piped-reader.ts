import { createInterface } from 'node:readline';
import type { LineReader, ReadResult } from '../input/line-reader-contract.ts';

/**
 * For piped input: one line per read, in order, then end of input. Lines that arrive while a
 * turn runs wait their turn; nothing is dropped. Its own module, loaded only when stdin is not a
 * terminal, so that drawing a prompt never loads readline.
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
