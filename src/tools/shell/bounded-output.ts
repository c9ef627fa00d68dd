import { countOf } from '../../shared/text/count-text.ts';

/**
 * Keeps the first `headBytes` and the last `tailBytes` of a stream of any length, counting what
 * falls between, so a command printing gigabytes costs a few kilobytes of memory.
 */
export class BoundedOutput {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer[] = [];
  private tailLength = 0;
  private totalBytes = 0;
  private totalNewlines = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  get byteCount(): number {
    return this.totalBytes;
  }

  add(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) this.totalNewlines++;
    let rest = chunk;
    if (this.headLength < this.headBytes) {
      const taken = rest.subarray(0, this.headBytes - this.headLength);
      this.head.push(taken);
      this.headLength += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    while (this.tailLength > this.tailBytes) {
      const first = this.tail[0]!;
      const excess = this.tailLength - this.tailBytes;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailLength -= excess;
      }
    }
  }

  /**
   * The text: whole when it fit, else head, a note like
   * "[… 1,000,000 bytes (12,000 lines) cut from the middle …]" and tail.
   */
  text(): string {
    const wholeHead = Buffer.concat(this.head);
    const wholeTail = Buffer.concat(this.tail);
    if (this.totalBytes === wholeHead.length + wholeTail.length) return Buffer.concat([wholeHead, wholeTail]).toString('utf8');
    // Cut at line ends when they are near, so no half line (or half a UTF-8 character) is shown.
    const headEnd = wholeHead.lastIndexOf(0x0a);
    const head = headEnd >= wholeHead.length / 2 ? wholeHead.subarray(0, headEnd + 1) : wholeHead;
    const tailStart = wholeTail.indexOf(0x0a);
    const tail = tailStart >= 0 && tailStart < wholeTail.length / 2 ? wholeTail.subarray(tailStart + 1) : wholeTail;
    const cutBytes = this.totalBytes - head.length - tail.length;
    const cutLines = this.totalNewlines - countNewlines(head) - countNewlines(tail);
    const note = `[… ${countOf(cutBytes, 'byte')} (${countOf(cutLines, 'line')}) cut from the middle of ${countOf(this.totalBytes, 'byte')} …]`;
    return `${head.toString('utf8').replace(/\n$/, '')}\n${note}\n${tail.toString('utf8')}`;
  }
}

function countNewlines(buffer: Buffer): number {
  let count = 0;
  for (const byte of buffer) if (byte === 0x0a) count++;
  return count;
}
