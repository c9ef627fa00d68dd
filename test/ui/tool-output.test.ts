import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Chalk } from 'chalk';
import { readCommandResult } from '../../src/tools/shell/command-result.ts';
import type { ToolCallRecord } from '../../src/ui/render/tool-calls.ts';
import { fullToolOutput } from '../../src/ui/render/tool-calls.ts';
import { finishedCallLines } from '../../src/ui/render/collapsed-view.ts';
import { expandedRows, isTooLongToShow } from '../../src/ui/render/expanded-view.ts';
import { promptOutputToggle } from '../../src/ui/render/prompt-toggle.ts';

const plain = new Chalk({ level: 0 });

const record = (toolName: string, outcome: ToolCallRecord['outcome'], extra: Partial<ToolCallRecord> = {}): ToolCallRecord => ({
  toolCallId: 'call_1',
  toolName,
  input: toolName === 'run_command' ? { command: 'make' } : { pattern: 'hello' },
  startedAt: 1_000,
  endedAt: 6_000,
  outcome,
  ...extra,
});

const result = (output: unknown): ToolCallRecord['outcome'] => ({ kind: 'result', output });
const numbered = (count: number, word = 'line') => Array.from({ length: count }, (_, index) => `${word} ${index + 1}`).join('\n');

describe('readCommandResult: run_command\'s text read back for the screen', () => {
  test('how it ended, in a few words, and its output without the section headings', () => {
    assert.deepEqual(readCommandResult('exit code 0 (0.1 s)\nstdout:\na\nb\nstderr:\nwarn'), { ending: 'exit code 0', succeeded: true, lines: ['a', 'b', 'warn'] });
    assert.deepEqual(readCommandResult('exit code 2 (0.1 s)\nstdout: (empty)'), { ending: 'exit code 2', succeeded: false, lines: [] });
    const timedOut = readCommandResult('timed out after 120 s and was stopped (with everything it started); the output so far is below.\nstdout:\nx');
    assert.equal(timedOut?.ending, 'timed out after 120 s');
    assert.equal(readCommandResult('killed by SIGKILL (3.0 s)\nstdout: (empty)')?.ending, 'killed by SIGKILL');
    assert.equal(readCommandResult('exit code 0 means nothing here'), undefined, 'any other text is not a command result');
  });
});

describe('finishedCallLines: a finished call in a few lines', () => {
  test('a command shows its last lines and how it ended, with the count of lines above them', () => {
    const output = `exit code 1 (5.0 s)\nstdout:\n${numbered(9)}\nstderr:\nFAILED: 1 test`;
    assert.deepEqual(finishedCallLines(record('run_command', result(output)), plain, 100, { expandable: true }), [
      '✗ run_command(command: "make") · 5.0s',
      '  │ line 7',
      '  │ line 8',
      '  │ line 9',
      '  │ FAILED: 1 test',
      '  ⎿ exit code 1 (+6 lines, ctrl+o to expand)',
    ]);
    assert.deepEqual(finishedCallLines(record('run_command', result('exit code 0 (0.0 s)\nstdout: (empty)')), plain, 100), [
      '✓ run_command(command: "make") · 5.0s',
      '  ⎿ exit code 0',
    ]);
  });

  test('a command stopped by the user keeps the lines it showed, then "interrupted after …"', () => {
    const stopped = record('run_command', { kind: 'error', error: 'This operation was aborted', stopped: 'interrupted' }, { progress: ['tick 7', 'tick 8'] });
    assert.deepEqual(finishedCallLines(stopped, plain, 100), ['✗ run_command(command: "make") · 5.0s', '  │ tick 7', '  │ tick 8', '  ⎿ interrupted after 5.0 s']);
    const timedOut = record('lookup', { kind: 'error', error: 'lookup did not finish within 5 s', stopped: 'timed-out' });
    assert.deepEqual(finishedCallLines(timedOut, plain, 100).slice(1), ['  ⎿ timed out after 5.0 s']);
    const timedOutCommand = record('run_command', result('timed out after 120 s and was stopped; the output so far is below.\nstdout:\nstill going'));
    assert.deepEqual(finishedCallLines(timedOutCommand, plain, 100).slice(1), ['  │ still going', '  ⎿ timed out after 120 s']);
  });

  test('a search shows its first matching lines, sanitised, then how many more', () => {
    const matches = ['a.txt:1: hello \u001b]52;c;eA==\u0007there', 'b.txt:2: hello\tworld', 'c.txt:3: hello', 'd.txt:4: hello', 'e.txt:5: hello', 'f.txt:6: hello'];
    const lines = finishedCallLines(record('search_files', result(`6 matches for /hello/ in the workspace:\n${matches.join('\n')}`)), plain, 100, { expandable: true });
    assert.deepEqual(lines, [
      '✓ search_files(pattern: "hello") · 5.0s',
      '  ⎿ 6 matches for /hello/ in the workspace:',
      '    a.txt:1: hello ␛]52;c;eA==␇there',
      '    b.txt:2: hello    world',
      '    c.txt:3: hello',
      '    d.txt:4: hello',
      '    (+2 more, ctrl+o to expand)',
    ]);
    const few = finishedCallLines(record('search_files', result('1 match for /hello/ in the workspace:\na.txt:1: hello')), plain, 100);
    assert.deepEqual(few.slice(1), ['  ⎿ 1 match for /hello/ in the workspace:', '    a.txt:1: hello']);
  });

  test('other results keep one line and the count of the rest; a long line is cut to the width', () => {
    const lines = finishedCallLines(record('read_file', result(`${'x'.repeat(200)}\nsecond\nthird`)), plain, 60);
    assert.equal(lines[1], `  ⎿ ${'x'.repeat(42)}… (+2 lines)`);
    assert.ok(lines.every((line) => line.length <= 60), lines.join('\n'));
  });

  test('where the whole output was saved is shown under it', () => {
    const saved = record('run_command', result(`exit code 0 (0.1 s)\nstdout:\n${numbered(100)}`), { savedAt: '/home/me/.sylvan/sessions/s1/tool-output/run_command-call_1.txt' });
    assert.equal(finishedCallLines(saved, plain, 100).at(-1), '    full output: /home/me/.sylvan/sessions/s1/tool-output/run_command-call_1.txt');
  });
});

describe('expandedRows: what Ctrl+O shows', () => {
  test('every line of the result, sanitised, under a heading that names the call', () => {
    const shown = record('search_files', result('3 matches:\na.txt:1: \u001b[2Jhello\nb.txt:1: hello\nc.txt:1: hello'));
    assert.deepEqual(expandedRows(shown, plain, 80, 30), [
      '⎿ search_files(pattern: "hello") · 4 lines · ctrl+o to collapse',
      '  3 matches:',
      '  a.txt:1: ␛[2Jhello',
      '  b.txt:1: hello',
      '  c.txt:1: hello',
    ]);
  });

  test('an output longer than the room shows its first lines and where all of it is', () => {
    const long = record('run_command', result(numbered(500)), { savedAt: '/tmp/home/sessions/s1/tool-output/run_command-call_1.txt' });
    assert.equal(isTooLongToShow(long, 80, 30), true);
    assert.equal(isTooLongToShow(record('run_command', result(numbered(20))), 80, 30), false);
    const rows = expandedRows(long, plain, 80, 30);
    assert.equal(rows.length, 30);
    assert.equal(rows[1], '  line 1');
    assert.deepEqual(rows.slice(-3), ['  line 27', '  … 473 more lines; all of it is in', '    /tmp/home/sessions/s1/tool-output/run_command-call_1.txt']);
    const unsaved = expandedRows(record('run_command', result(numbered(500))), plain, 80, 30);
    assert.equal(unsaved.at(-1), '  … 472 more lines; /last prints all of it');
  });

  test('at the prompt, Ctrl+O shows the last finished result and the next press hides it', () => {
    const records = [record('search_files', result('first')), record('search_files', result('second\nline'))];
    const toggle = promptOutputToggle(() => records, plain, { write: () => true, columns: 80 });
    assert.deepEqual(toggle(), ['⎿ search_files(pattern: "hello") · 2 lines · ctrl+o to collapse', '  second', '  line']);
    assert.deepEqual(toggle(), []);
    assert.equal(toggle().length, 3);
    const none = promptOutputToggle(() => [], plain, { write: () => true, columns: 80 });
    assert.match(none()[0] ?? '', /No tool result to expand/);
  });

  test('/last prints an interrupted call as the lines it showed and how it ended', () => {
    const stopped = record('run_command', { kind: 'error', error: 'aborted', stopped: 'interrupted' }, { progress: ['tick 8'] });
    assert.deepEqual(fullToolOutput([stopped], (text) => text), ['run_command(command: "make") · 5.0s', '  tick 8', '  interrupted after 5.0 s']);
  });
});
