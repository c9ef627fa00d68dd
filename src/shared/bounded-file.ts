import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { isInside, isSecretPath, toRelative } from './workspace-path.ts';
import { digits } from './text/count-text.ts';

export interface BoundedFileOptions {
  /** Bytes read at most: the rest of a longer file is never read. */
  maxBytes: number;
  /** The folder the file must lie in: every link on the way must resolve inside it. */
  within: string;
  /** How the refusal names the folder: "the workspace", "$SYLVAN_HOME". */
  withinLabel: string;
  /**
   * `read_file`'s rules, for text that reaches the model: no secret file (by the requested or the
   * real name, built-in patterns plus these) and no hard link (it may be a secret under another name).
   */
  readFileRules?: { secretPatterns: readonly string[] };
}

export type BoundedFile =
  | { status: 'read'; bytes: Buffer; /** The file's size; more than `bytes.length` when it was cut. */ size: number; cut: boolean }
  | { status: 'missing' }
  | { status: 'refused'; /** Why, as the end of "X was not read: …". */ reason: string };

/**
 * Reads a file Sylvan opens on its own (settings, `.env`, instruction files, `.gitignore`s), never
 * one the model named: only a regular file inside `within`, reached without a link out of it, and
 * at most `maxBytes` of it. The open is non-blocking and does not follow a link swapped in after
 * the check (O_NONBLOCK | O_NOFOLLOW), so a FIFO cannot block start-up and a device is refused
 * before anything is read. Synchronous (start-up and the banner need the answer); never throws.
 */
export function readBoundedFile(file: string, options: BoundedFileOptions): BoundedFile {
  let root: string;
  try {
    root = realpathSync(options.within);
  } catch {
    return { status: 'missing' };
  }
  const requested = path.resolve(options.within, file);
  let linkStats: Stats;
  let real: string;
  try {
    linkStats = lstatSync(requested);
    real = realpathSync(requested);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A link to nothing is as good as no file.
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    return { status: 'refused', reason: describeError(error) };
  }
  if (!isInside(root, real)) return { status: 'refused', reason: `it leads outside ${options.withinLabel}, to ${real}` };
  if (options.readFileRules) {
    const patterns = options.readFileRules.secretPatterns;
    const relativeReal = toRelative(root, real);
    const relativeRequested = toRelative(path.resolve(options.within), requested);
    if (isSecretPath(relativeRequested, patterns) || isSecretPath(relativeReal, patterns)) {
      return { status: 'refused', reason: `${linkStats.isSymbolicLink() ? `it is a link to ${relativeReal}, ` : 'it is '}a secret file, which never goes to the model` };
    }
  }

  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { status: 'missing' };
    if (code === 'ELOOP') return { status: 'refused', reason: 'it changed into a link while it was being opened' };
    // A socket cannot be opened at all.
    if (code === 'ENXIO') return { status: 'refused', reason: 'it is not a regular file' };
    return { status: 'refused', reason: describeError(error) };
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return { status: 'refused', reason: `it is ${kindOf(opened)}, not a regular file` };
    if (!openedWhereChecked(fd, real, opened)) return { status: 'refused', reason: 'it was replaced while it was being opened' };
    if (options.readFileRules && opened.nlink > 1) {
      return { status: 'refused', reason: 'it is a hard link (the same file has another name, maybe a secret or outside)' };
    }
    const bytes = Buffer.alloc(Math.min(options.maxBytes, Math.max(opened.size, 0)));
    let filled = 0;
    while (filled < bytes.length) {
      const count = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (count === 0) break;
      filled += count;
    }
    return { status: 'read', bytes: bytes.subarray(0, filled), size: opened.size, cut: opened.size > filled };
  } catch (error) {
    return { status: 'refused', reason: describeError(error) };
  } finally {
    closeSync(fd);
  }
}

/**
 * `readBoundedFile` for a file that is parsed whole (JSON, `.env`): one longer than `maxBytes` is
 * refused rather than cut, since half of it would only fail to parse or mean something else.
 */
export function readWholeSmallFile(file: string, options: BoundedFileOptions): Exclude<BoundedFile, { cut: true }> {
  const read = readBoundedFile(file, options);
  if (read.status === 'read' && read.cut) return { status: 'refused', reason: `it is larger than ${digits(options.maxBytes)} bytes` };
  return read as Exclude<BoundedFile, { cut: true }>;
}

/** The opened file is the one checked: O_NOFOLLOW guards only the last segment against a link swapped in since. */
function openedWhereChecked(fd: number, real: string, opened: Stats): boolean {
  try {
    const actual = readlinkSync(`/proc/self/fd/${fd}`);
    if (actual.startsWith('/')) return actual === real;
  } catch {
    // No /proc (macOS): compare device and inode through the path.
  }
  try {
    const atPath = statSync(real);
    return atPath.dev === opened.dev && atPath.ino === opened.ino;
  } catch {
    return false;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSocket()) return 'a socket';
  return 'something other than a file';
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'it is a loop of links';
  return ((error as Error).message ?? String(error)).split('\n')[0] ?? 'it could not be read';
}
