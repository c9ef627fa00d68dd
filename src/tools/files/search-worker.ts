/**
 * Runs in a worker thread: reads the files it is given and tests each line against the pattern.
 * Kept apart from the main thread so a pattern that backtracks for ever can be stopped by
 * terminating the worker. Imports nothing but Node's own modules.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

export interface SearchJob {
  /** Absolute paths and the names to report them by. */
  files: { absolutePath: string; displayPath: string }[];
  pattern: string;
  flags: string;
  /** Stop after this many matches (the caller asks one more than it shows, to know there are more). */
  maxMatches: number;
  maxFileBytes: number;
  maxLineChars: number;
}

export type SearchMessage =
  | { type: 'file'; index: number }
  | { type: 'match'; file: string; line: number; text: string }
  | { type: 'done'; searched: number; binary: number; tooLarge: number; unreadable: number; stoppedEarly: boolean };

const BINARY_SNIFF_BYTES = 8 * 1024;

function run(job: SearchJob, post: (message: SearchMessage) => void): void {
  const regex = new RegExp(job.pattern, job.flags);
  let matches = 0;
  const counts = { searched: 0, binary: 0, tooLarge: 0, unreadable: 0 };
  for (const [index, file] of job.files.entries()) {
    post({ type: 'file', index });
    const bytes = readSmallFile(file.absolutePath, job.maxFileBytes);
    if (bytes === 'too-large') {
      counts.tooLarge++;
      continue;
    }
    if (bytes === undefined) {
      counts.unreadable++;
      continue;
    }
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      counts.binary++;
      continue;
    }
    counts.searched++;
    const lines = bytes.toString('utf8').split('\n');
    for (const [lineIndex, rawLine] of lines.entries()) {
      const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
      const at = line.search(regex);
      if (at < 0) continue;
      post({ type: 'match', file: file.displayPath, line: lineIndex + 1, text: excerpt(line, at, job.maxLineChars) });
      if (++matches >= job.maxMatches) {
        post({ type: 'done', ...counts, stoppedEarly: true });
        return;
      }
    }
  }
  post({ type: 'done', ...counts, stoppedEarly: false });
}

function readSmallFile(absolutePath: string, maxBytes: number): Buffer | 'too-large' | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(absolutePath, 'r');
    const size = fstatSync(descriptor).size;
    if (size > maxBytes) return 'too-large';
    const buffer = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(descriptor, buffer, filled, size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The line, or a window of it around the match when it is long. */
function excerpt(line: string, at: number, maxChars: number): string {
  const trimmed = line.trimEnd();
  if (trimmed.length <= maxChars) return trimmed;
  const start = Math.max(0, Math.min(at - Math.floor(maxChars / 4), trimmed.length - maxChars));
  return `${start > 0 ? '…' : ''}${trimmed.slice(start, start + maxChars)}${start + maxChars < trimmed.length ? '…' : ''}`;
}

if (parentPort) {
  const port = parentPort;
  run(workerData as SearchJob, (message) => port.postMessage(message));
}
