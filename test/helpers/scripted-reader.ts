import type { LineReader, ReadResult } from '../../src/ui/input/line-reader-contract.ts';

/** A terminal reader that answers each `read` with the next scripted result and records the prompts. */
export class ScriptedReader implements LineReader {
  readonly prompts: string[] = [];
  readonly history: readonly string[] = [];
  readonly interactive = true;
  constructor(private readonly script: ReadResult[]) {}
  async read(prompt: string): Promise<ReadResult> {
    this.prompts.push(prompt);
    // The user answers after the prompt is drawn: let the caller run on first.
    await Promise.resolve();
    const next = this.script.shift();
    if (next === undefined) throw new Error(`read past the end of the script (prompt ${JSON.stringify(prompt)})`);
    return next;
  }
  close(): void {}
}

/** Lines typed in answer, in order. */
export const typedLines = (...lines: string[]): ReadResult[] => lines.map((line) => ({ kind: 'line', line }));
