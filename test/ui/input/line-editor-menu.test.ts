import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { LineEditor } from '../../../src/ui/input/editor/line-editor.ts';
import { FakeInput, FakeOutput } from '../../helpers/fake-terminal.ts';

let editors: LineEditor[] = [];
afterEach(() => {
  for (const editor of editors) editor.close();
  editors = [];
});

function start() {
  const input = new FakeInput();
  const output = new FakeOutput();
  const editor = new LineEditor({ input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream, history: [] });
  editors.push(editor);
  return { editor, output, type: (keys: string) => input.emit('data', keys) };
}

const CHOICES = [
  { key: 'y', label: 'Yes' },
  { key: 'a', label: 'Yes, and always this session' },
  { key: 'n', label: 'No' },
  { key: 't', label: 'No, and tell it why' },
];

describe('LineEditor.choose: a menu answered by one key', { timeout: 10_000 }, () => {
  test('one key picks its choice at once, without Enter; the question stays with the answer after it', async () => {
    const { editor, output, type } = start();
    const answer = editor.choose('write_file a.txt?', CHOICES);
    assert.match(output.written, /❯ y {2}Yes/);
    assert.match(output.written, /t {2}No, and tell it why/);
    type('t');
    assert.deepEqual(await answer, { kind: 'choice', key: 't' });
    assert.match(output.written, /\x1b\[Jwrite_file a\.txt\? No, and tell it why(\r\x1b\[\d+C)?\r\n\x1b\[J$/);
  });

  test('↓ and Enter pick the marked choice; ↑ wraps around', async () => {
    const { editor, type } = start();
    const down = editor.choose('q?', CHOICES);
    type('\x1b[B');
    type('\x1b[B');
    type('\r');
    assert.deepEqual(await down, { kind: 'choice', key: 'n' });
    const up = editor.choose('q?', CHOICES);
    type('\x1b[A');
    type('\r');
    assert.deepEqual(await up, { kind: 'choice', key: 't' });
  });

  test('Esc, Ctrl-C and Ctrl-D come back as such; other letters are ignored', async () => {
    const { editor, type } = start();
    const escaped = editor.choose('q?', CHOICES);
    type('x');
    type('\x1b');
    assert.deepEqual(await escaped, { kind: 'escape' });
    const interrupted = editor.choose('q?', CHOICES);
    type('\x03');
    assert.deepEqual(await interrupted, { kind: 'interrupt' });
    const ended = editor.choose('q?', CHOICES);
    type('\x04');
    assert.deepEqual(await ended, { kind: 'eof' });
  });

  test('a half-typed message waits through the menu and is back at the next prompt', async () => {
    const { editor, type } = start();
    type('draft');
    const answer = editor.choose('q?', CHOICES);
    type('y');
    await answer;
    const next = editor.read('› ');
    type('\r');
    assert.deepEqual(await next, { kind: 'line', line: 'draft' });
  });
});

describe('LineEditor: Shift+Tab and the footer at the message prompt', { timeout: 10_000 }, () => {
  test('Shift+Tab calls onShiftTab and draws the prompt and footer it returns; the footer is erased when the line is sent', async () => {
    const { editor, output, type } = start();
    const modes = ['ask', 'auto-edit', 'plan'];
    let index = 0;
    const read = editor.read('› ', {
      footer: 'ask mode',
      onShiftTab: () => {
        index = (index + 1) % modes.length;
        return { prompt: index === 0 ? '› ' : `${modes[index]} › `, footer: `${modes[index]} mode` };
      },
    });
    assert.match(output.written, /ask mode/);
    type('\x1b[Z');
    assert.match(output.written, /auto-edit › \r\n\S*auto-edit mode/);
    type('\x1b[Z');
    assert.match(output.written, /plan › \r\n\S*plan mode/);
    type('hi');
    const before = output.written.length;
    type('\r');
    assert.deepEqual(await read, { kind: 'line', line: 'hi' });
    const last = output.written.slice(before);
    assert.doesNotMatch(last, /mode/, `the last draw has no footer: ${JSON.stringify(last)}`);
    assert.match(last, /plan › hi/);
  });
});

describe('LineEditor: Ctrl+O shows rows above the prompt and hides them', { timeout: 10_000 }, () => {
  test('at the message prompt the rows onToggleOutput returns are drawn above the prompt and erased with the next press; what was typed stays', async () => {
    const { editor, output, type } = start();
    let shown = false;
    const read = editor.read('› ', {
      footer: 'ask mode',
      onToggleOutput: () => ((shown = !shown) ? ['⎿ run_command · 2 lines', '  first', '  second'] : []),
    });
    type('hi');
    let before = output.written.length;
    type('\x0f');
    assert.match(output.written.slice(before), /^\r\x1b\[J⎿ run_command · 2 lines\r\n {2}first\r\n {2}second\r\n› hi\r\nask mode/);
    before = output.written.length;
    type('\x0f');
    // Back up over the three rows above and the prompt row, then the prompt alone.
    assert.match(output.written.slice(before), /^\r\x1b\[3A\x1b\[J› hi\r\nask mode/);
    type('\r');
    assert.deepEqual(await read, { kind: 'line', line: 'hi' });
  });

  test('while no message is being read (a turn runs), Ctrl+O reaches the onToggleOutput listeners and is not typed', async () => {
    const { editor, type } = start();
    let presses = 0;
    const stop = editor.onToggleOutput(() => presses++);
    type('\x0f');
    type('\x0f');
    stop();
    type('\x0f');
    assert.equal(presses, 2);
    type('next\r');
    assert.deepEqual(await editor.read('› '), { kind: 'line', line: 'next' });
  });
});
