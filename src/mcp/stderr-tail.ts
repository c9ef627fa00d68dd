/** The last few kilobytes a server wrote on stderr, kept for `/mcp`; never written to the terminal. */
export class StderrTail {
  private text = '';

  constructor(private readonly maxChars = 4_000) {}

  append(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.maxChars);
  }

  /** The last `count` non-empty lines. */
  lastLines(count: number): string[] {
    return this.text
      .split('\n')
      .map((line) => line.trimEnd())
      .filter(Boolean)
      .slice(-count);
  }
}
