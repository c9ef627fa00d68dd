/** The largest message Sylvan takes from an MCP server over stdio, as the SDK's own reader: 10 MiB. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** A server sent a line longer than the bound: the stream cannot be trusted after it, so the server is dropped. */
export class MessageTooLargeError extends Error {
  override name = 'MessageTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`it sent a message larger than ${Math.round(maxBytes / (1024 * 1024))} MB, the most Sylvan takes`);
  }
}

/**
 * Splits a server's stdout into lines (one JSON-RPC message each) without ever holding more than
 * `maxBytes` of an unfinished one: the SDK's `ReadBuffer` throws from inside the stream's 'data'
 * handler (an uncaught exception: the whole session ended with a stack trace), and copies the
 * whole buffer on every chunk. Here the chunks wait in a list and are joined once, at the newline.
 */
export class MessageLines {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private failed = false;

  constructor(private readonly maxBytes = MAX_MESSAGE_BYTES) {}

  /** The complete lines `chunk` finishes (without "\n" or a trailing "\r"); throws `MessageTooLargeError`, then takes nothing more. */
  push(chunk: Buffer): string[] {
    if (this.failed) return [];
    const lines: string[] = [];
    let start = 0;
    while (true) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) break;
      const piece = chunk.subarray(start, end);
      this.guard(piece.length);
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.pending = [];
      this.pendingBytes = 0;
      lines.push(line.toString('utf8').replace(/\r$/, ''));
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.guard(rest.length);
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    return lines;
  }

  private guard(moreBytes: number): void {
    if (this.pendingBytes + moreBytes <= this.maxBytes) return;
    this.failed = true;
    this.pending = [];
    this.pendingBytes = 0;
    throw new MessageTooLargeError(this.maxBytes);
  }
}
