/**
 * Output that reaches a pipe whole. Node queues writes to a pipe the reader has not emptied yet,
 * and `process.exit` drops that queue: `sylvan -p … | slow-reader` used to lose everything past
 * the pipe's 64 KB. Every exit path waits here first.
 */

/** Resolves once everything written to `stream` so far has been handed to the system (or the reader has gone). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    try {
      // Writes complete in order, so the callback of an empty write means the queue before it is out.
      stream.write('', () => resolve());
    } catch {
      resolve();
    }
  });
}

/** Waits until stdout and stderr have drained; never rejects. */
export async function drainOutput(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): Promise<void> {
  await Promise.all(streams.map(flushed));
}

/** A reader that closes the pipe early (`| head`) made that choice: exit quietly, with 0. */
export function exitQuietlyOnClosedPipe(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
    });
  }
}
