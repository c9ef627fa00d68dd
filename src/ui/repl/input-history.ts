import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Entries kept for the REPL's up-arrow. */
export const INPUT_HISTORY_LIMIT = 500;
/** The file is trimmed back to the limit once it holds this many entries, so it never grows without end. */
const TRIM_AT = 2 * INPUT_HISTORY_LIMIT;

/** `$SYLVAN_HOME/history`: one entry per line, oldest first, newlines escaped. */
export function inputHistoryPath(home: string): string {
  return join(home, 'history');
}

/**
 * The REPL's saved input: read once when the REPL starts, then only appended to — an Enter late in
 * a long session costs what the first one did. The file is read again only to trim it (once per
 * `INPUT_HISTORY_LIMIT` entries), so entries other sessions appended meanwhile are kept.
 */
export class InputHistory {
  /** Lines in the file as far as this process knows (its own appends since the read included). */
  private lines: number;
  private last: string | undefined;
  private endsWithNewline: boolean;
  /** The saved input, newest first (the order the line editor wants), at most `INPUT_HISTORY_LIMIT` entries. */
  readonly entries: string[];

  constructor(private readonly home: string) {
    const text = readText(inputHistoryPath(home));
    const lines = splitLines(text);
    this.lines = lines.length;
    this.last = lines.at(-1);
    this.endsWithNewline = text === '' || text.endsWith('\n');
    this.entries = lines.slice(-INPUT_HISTORY_LIMIT).map(unescapeLine).reverse();
  }

  /**
   * Saves one REPL input line (multi-line input is escaped onto one line). Skips blank input and an
   * exact repeat of the previous entry. Creates `home` (0700) and the file (0600) as needed, since
   * input can hold pasted secrets. Never throws: history is a convenience, losing an entry is acceptable.
   */
  append(line: string): void {
    if (line.trim() === '') return;
    const escaped = escapeLine(line);
    if (this.last === escaped) return;
    const path = inputHistoryPath(this.home);
    try {
      if (this.lines + 1 >= TRIM_AT) {
        const kept = splitLines(readText(path)).slice(-(INPUT_HISTORY_LIMIT - 1));
        const temporary = `${path}.${process.pid}.tmp`;
        writeFileSync(temporary, [...kept, escaped, ''].join('\n'), { mode: 0o600 });
        renameSync(temporary, path);
        this.lines = kept.length + 1;
      } else {
        mkdirSync(this.home, { recursive: true, mode: 0o700 });
        // A line cut off by a crash must not swallow this entry.
        appendFileSync(path, `${this.endsWithNewline ? '' : '\n'}${escaped}\n`, { mode: 0o600 });
        this.lines++;
      }
      this.last = escaped;
      this.endsWithNewline = true;
    } catch {
      // History is best effort; the REPL goes on without it.
    }
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function splitLines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

function escapeLine(line: string): string {
  return line.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function unescapeLine(line: string): string {
  return line.replace(/\\(\\|n|r)/g, (_, code: string) => (code === 'n' ? '\n' : code === 'r' ? '\r' : '\\'));
}
