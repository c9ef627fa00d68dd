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
 * The saved REPL input, newest first (the order node:readline's `history` option wants), at most
 * `INPUT_HISTORY_LIMIT` entries. A missing or unreadable file gives an empty list. Never throws.
 */
export function loadInputHistory(home: string): string[] {
  const lines = splitLines(readText(inputHistoryPath(home)));
  return lines.slice(-INPUT_HISTORY_LIMIT).map(unescapeLine).reverse();
}

/**
 * Saves one REPL input line (multi-line input is escaped onto one line). Skips blank input and an
 * exact repeat of the previous entry. Creates `home` (0700) and the file (0600) as needed, since input
 * can hold pasted secrets. Never throws: history is a convenience, losing an entry is acceptable.
 */
export function appendInputHistory(home: string, line: string): void {
  if (line.trim() === '') return;
  const path = inputHistoryPath(home);
  try {
    const text = readText(path);
    const lines = splitLines(text);
    const escaped = escapeLine(line);
    if (lines.at(-1) === escaped) return;
    if (lines.length + 1 >= TRIM_AT) {
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, [...lines.slice(-(INPUT_HISTORY_LIMIT - 1)), escaped, ''].join('\n'), { mode: 0o600 });
      renameSync(temporary, path);
      return;
    }
    mkdirSync(home, { recursive: true, mode: 0o700 });
    // A line cut off by a crash must not swallow this entry.
    const separator = text === '' || text.endsWith('\n') ? '' : '\n';
    appendFileSync(path, `${separator}${escaped}\n`, { mode: 0o600 });
  } catch {
    // History is best effort; the REPL goes on without it.
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
