const MAX_LINE_CHARS = 200;

/** The last few lines of a running command's output, for the live view; memory stays bounded. */
export class LatestLines {
  private lines: string[] = [''];

  constructor(private readonly count: number) {}

  add(chunk: string): void {
    const pieces = chunk.replace(/\r\n/g, '\n').split('\n');
    this.lines[this.lines.length - 1] = cut((this.lines.at(-1) ?? '') + pieces[0]);
    for (const piece of pieces.slice(1)) this.lines.push(cut(piece));
    if (this.lines.length > this.count + 1) this.lines = this.lines.slice(-(this.count + 1));
  }

  /** Up to `count` lines; an unfinished last line counts, an empty one does not. */
  text(): string {
    const lines = this.lines.at(-1) === '' ? this.lines.slice(0, -1) : this.lines;
    return lines.slice(-this.count).join('\n');
  }
}

function cut(line: string): string {
  // A progress bar redraws its line with \r: only the last drawing matters.
  const drawn = line.slice(line.lastIndexOf('\r') + 1);
  return drawn.length > MAX_LINE_CHARS ? drawn.slice(0, MAX_LINE_CHARS) : drawn;
}
