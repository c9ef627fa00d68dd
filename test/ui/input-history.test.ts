import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { INPUT_HISTORY_LIMIT, InputHistory, inputHistoryPath } from '../../src/ui/repl/input-history.ts';

/** What a REPL started now would offer on the up-arrow. */
const loadInputHistory = (home: string) => new InputHistory(home).entries;
/** One entry saved by a REPL started now. */
const appendInputHistory = (home: string, line: string) => new InputHistory(home).append(line);

let root: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sylvan-history-'));
  home = join(root, '.sylvan');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('input history', () => {
  test('a missing file is an empty history', () => {
    assert.deepEqual(loadInputHistory(home), []);
  });

  test('loads entries newest first, creating the home folder privately', () => {
    appendInputHistory(home, 'first');
    appendInputHistory(home, '第二个问题');
    appendInputHistory(home, 'third');
    assert.deepEqual(loadInputHistory(home), ['third', '第二个问题', 'first']);
    assert.equal(statSync(inputHistoryPath(home)).mode & 0o777, 0o600);
    assert.equal(statSync(home).mode & 0o777, 0o700);
  });

  test('keeps multi-line input and backslashes intact, one file line per entry', () => {
    const pasted = 'line one\nline two\r\nC:\\temp\\new and a literal \\n';
    appendInputHistory(home, pasted);
    appendInputHistory(home, 'after');
    assert.deepEqual(loadInputHistory(home), ['after', pasted]);
    assert.equal(readFileSync(inputHistoryPath(home), 'utf8').split('\n').length, 3);
  });

  test('skips blank input and an exact repeat of the previous entry only', () => {
    appendInputHistory(home, 'ls');
    appendInputHistory(home, '   ');
    appendInputHistory(home, '');
    appendInputHistory(home, 'ls');
    appendInputHistory(home, 'pwd');
    appendInputHistory(home, 'ls');
    assert.deepEqual(loadInputHistory(home), ['ls', 'pwd', 'ls']);
  });

  test(`keeps at most ${INPUT_HISTORY_LIMIT} entries and trims the file`, () => {
    const history = new InputHistory(home);
    for (let index = 0; index < 1_200; index++) history.append(`entry ${index}`);
    const loaded = loadInputHistory(home);
    assert.equal(loaded.length, INPUT_HISTORY_LIMIT);
    assert.equal(loaded[0], 'entry 1199');
    assert.equal(loaded.at(-1), `entry ${1_200 - INPUT_HISTORY_LIMIT}`);
    const fileLines = readFileSync(inputHistoryPath(home), 'utf8').split('\n').filter(Boolean);
    assert.ok(fileLines.length < 2 * INPUT_HISTORY_LIMIT, `file holds ${fileLines.length} lines`);
  });

  test('an entry after a cut-off last line is kept whole', () => {
    appendInputHistory(home, 'complete');
    appendFileSync(inputHistoryPath(home), 'half writ');
    appendInputHistory(home, 'next');
    assert.deepEqual(loadInputHistory(home), ['next', 'half writ', 'complete']);
  });

  test('never throws when the history cannot be written or read', () => {
    const blocked = join(root, 'a-file');
    writeFileSync(blocked, 'x');
    assert.doesNotThrow(() => appendInputHistory(join(blocked, 'home'), 'hello'));
    assert.deepEqual(loadInputHistory(join(blocked, 'home')), []);
  });

  test('an Enter appends without reading the file again, whatever its length', () => {
    for (let index = 0; index < 400; index++) appendFileSync(join(mkdirHome(), 'history'), `old ${index}\n`);
    const history = new InputHistory(home);
    const original = fs.readFileSync;
    let reads = 0;
    fs.readFileSync = ((...args: Parameters<typeof original>) => {
      if (String(args[0]) === inputHistoryPath(home)) reads++;
      return original(...args);
    }) as typeof original;
    syncBuiltinESMExports();
    try {
      for (let index = 0; index < 50; index++) history.append(`new ${index}`);
      history.append('new 49');
    } finally {
      fs.readFileSync = original;
      syncBuiltinESMExports();
    }
    assert.equal(reads, 0);
    const entries = loadInputHistory(home);
    assert.equal(entries.length, 450);
    assert.deepEqual(entries.slice(0, 2), ['new 49', 'new 48']);
    assert.equal(entries.at(-1), 'old 0');
  });
});

function mkdirHome(): string {
  fs.mkdirSync(home, { recursive: true });
  return home;
}
