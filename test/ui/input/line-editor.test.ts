import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { createCompleter } from '../../../src/ui/input/completion.ts';
import { LineEditor } from '../../../src/ui/input/editor/line-editor.ts';
import { FakeInput, FakeOutput } from '../../helpers/fake-terminal.ts';

let editors: LineEditor[] = [];
afterEach(() => {
  for (const editor of editors) editor.close();
  editors = [];
});

function start(options: { history?: string[]; now?: () => number; columns?: number } = {}) {
  const input = new FakeInput();
  const output = new FakeOutput();
  output.columns = options.columns ?? 80;
  const editor = new LineEditor({
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    history: options.history ?? [],
    now: options.now,
    completer: createCompleter({ commands: [{ name: '/help', summary: 'this list' }, { name: '/model', summary: 'show or switch the model' }], workspaceRoot: process.cwd() }),
  });
  editors.push(editor);
  const type = (keys: string) => input.emit('data', keys);
  return { editor, input, output, type };
}

describe('LineEditor', { timeout: 10_000 }, () => {
  test('raw mode and bracketed paste are on while it runs and off after close', () => {
    const { editor, input, output } = start();
    assert.equal(input.raw, true);
    assert.ok(output.written.includes('\x1b[?2004h'));
    editor.close();
    assert.equal(input.raw, false);
    assert.ok(output.written.endsWith('\x1b[?2004l'));
  });

  test('lines typed before raw mode (cooked: Enter came as "\\n") are sent as typed, each its own message', async () => {
    const { editor, type } = start();
    type('天气如何\nand in Paris?\nand Rom');
    assert.deepEqual(await editor.read('› '), { kind: 'line', line: '天气如何' });
    assert.deepEqual(await editor.read('› '), { kind: 'line', line: 'and in Paris?' });
    // The last line, not sent yet, waits in the input.
    const third = editor.read('› ');
    type('e?\r');
    assert.deepEqual(await third, { kind: 'line', line: 'and Rome?' });
    // Later, a "\n" is Ctrl-J again: a newline in the input.
    const read = editor.read('› ');
    type('one');
    type('\n');
    type('two\r');
    assert.deepEqual(await read, { kind: 'line', line: 'one\ntwo' });
  });

  test('a pasted 3-line block is one message, drawn as its lines', async () => {
    const { editor, output, type } = start();
    const read = editor.read('› ');
    type('\x1b[200~first line\r\nsecond line\nthird line\x1b[201~');
    assert.match(output.written, /› first line\r\n  second line\r\n  third line/);
    type('\r');
    assert.deepEqual(await read, { kind: 'line', line: 'first line\nsecond line\nthird line' });
  });

  test('a longer paste is drawn as [pasted N lines] and sent whole', async () => {
    const { editor, output, type } = start();
    const read = editor.read('› ');
    type('look: ');
    type('\x1b[200~1\n2\n3\n4\n5\x1b[201~');
    assert.ok(output.written.includes('look: [pasted 5 lines]'));
    type('\x7f'); // one Backspace removes the whole paste
    type('\x1b[200~a\nb\nc\nd\x1b[201~ ok\r');
    assert.deepEqual(await read, { kind: 'line', line: 'look: a\nb\nc\nd ok' });
  });

  test('\\+Enter, Ctrl-J, Alt+Enter and both Shift+Enter forms insert newlines; Enter sends', async () => {
    const { editor, type } = start();
    const read = editor.read('› ');
    type('one\\\rtwo\nthree\x1b\rfour\x1b[13;2ufive\x1b[27;2;13~six\r');
    assert.deepEqual(await read, { kind: 'line', line: 'one\ntwo\nthree\nfour\nfive\nsix' });
  });

  test('a CJK line edited with ← and Backspace', async () => {
    const { editor, output, type } = start();
    const read = editor.read('› ');
    type('北京今天天气怎么样');
    type('\x1b[D\x1b[D\x7f');
    // The cursor sits after 气: prompt 2 + six characters of two columns.
    assert.ok(output.written.endsWith('\r\x1b[14C'), JSON.stringify(output.written.slice(-30)));
    type('什\r');
    assert.deepEqual(await read, { kind: 'line', line: '北京今天天气什么样' });
  });

  test('pasted escape sequences are drawn as visible symbols, never sent to the terminal', async () => {
    const { editor, output, type } = start();
    const read = editor.read('› ');
    type('\x1b[200~x\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[201~');
    assert.ok(!output.written.includes('\x1b]52'));
    assert.ok(!output.written.includes('\x1b[2J'));
    assert.ok(output.written.includes('x␛]52;c;ZXZpbA==␇␛[2J'));
    type('\r');
    assert.equal(((await read) as { line: string }).line, 'x\x1b]52;c;ZXZpbA==\x07\x1b[2J');
  });

  test('a question holding outside text (a file name from the model) cannot move the cursor or clear the screen', async () => {
    const { editor, output, type } = start();
    const answer = editor.read('write evil\r\x1b[2K\x1b]0;title\x07.txt? › ', { remember: false });
    assert.ok(!output.written.includes('\x1b[2K') && !output.written.includes('\x1b]0;'));
    assert.ok(output.written.includes('write evil␍␛[2K␛]0;title␇.txt? › '));
    type('n\r');
    assert.deepEqual(await answer, { kind: 'line', line: 'n' });
  });

  test('type-ahead during a turn is not drawn by the editor (the live rows draw it), and is sent at the next prompt marked queued', async () => {
    const { editor, output, type } = start();
    const before = output.written;
    type('next question\rand another\r');
    assert.equal(output.written, before, 'the editor draws nothing while the turn runs');
    assert.deepEqual(editor.typeAhead.view(79).rows, ['queued: next question', 'queued: and another']);
    assert.deepEqual(await editor.read('› '), { kind: 'line', line: 'next question' });
    assert.match(output.written, /› next question {2}· queued/);
    assert.deepEqual(await editor.read('› '), { kind: 'line', line: 'and another' });
    assert.deepEqual(editor.history.slice(0, 2), ['and another', 'next question']);
  });

  test('half-typed type-ahead is waiting in the next prompt', async () => {
    const { editor, type } = start();
    type('half');
    const read = editor.read('› ');
    type(' done\r');
    assert.deepEqual(await read, { kind: 'line', line: 'half done' });
  });

  test('Ctrl-D typed during a turn ends input after it', async () => {
    const { editor, type } = start();
    type('\x04');
    assert.deepEqual(await editor.read('› '), { kind: 'eof' });
  });

  test('a question during a turn (approval) does not take the queued message', async () => {
    const { editor, type } = start();
    type('later\r\rpartial ');
    type('\x1b[200~1\n2\n3\n4\x1b[201~');
    const answer = editor.read('write it? › ', { remember: false });
    type('y\r');
    assert.deepEqual(await answer, { kind: 'line', line: 'y' });
    assert.deepEqual(await editor.read('› '), { kind: 'line', line: 'later' });
    const next = editor.read('› ');
    type('\r');
    assert.deepEqual(await next, { kind: 'line', line: 'partial 1\n2\n3\n4' });
  });

  test('Esc and Ctrl-C during a turn reach the interrupt listeners', () => {
    const { editor, type } = start();
    let interrupts = 0;
    const unsubscribe = editor.onInterrupt(() => interrupts++);
    type('\x1b');
    type('\x03');
    unsubscribe();
    type('\x03');
    assert.equal(interrupts, 2);
  });

  test('Esc or Ctrl-C at a question interrupts it', async () => {
    const { editor, type } = start();
    const answer = editor.read('ok? › ', { remember: false });
    type('\x1b');
    assert.deepEqual(await answer, { kind: 'interrupt', hadText: false });
  });

  test('Ctrl-C clears typed text; at an empty prompt a second Ctrl-C within 2 s quits', async () => {
    let clock = 10_000;
    const { editor, output, type } = start({ now: () => clock });
    let settled = false;
    const read = editor.read('› ').then((result) => ((settled = true), result));
    type('some text\x03');
    type('\x03');
    assert.ok(output.written.includes('Press Ctrl-C again to exit'));
    clock += 2_500;
    type('\x03'); // too late: only the hint again
    await Promise.resolve();
    assert.equal(settled, false);
    clock += 500;
    type('\x03');
    assert.deepEqual(await read, { kind: 'interrupt', hadText: false });
  });

  test('Esc twice at an empty prompt sends /rewind; with text, or too slowly, or at a question it does not', async () => {
    let clock = 10_000;
    const { editor, output, type } = start({ now: () => clock });
    let settled = false;
    const read = editor.read('› ').then((result) => ((settled = true), result));
    type('text');
    type('\x1b');
    type('\x1b');
    type('\x15'); // Ctrl-U: the prompt is empty again
    type('\x1b');
    assert.ok(output.written.includes('Press Esc again to rewind'));
    clock += 2_500;
    type('\x1b'); // too late: armed again only
    await Promise.resolve();
    assert.equal(settled, false);
    clock += 500;
    type('\x1b');
    assert.deepEqual(await read, { kind: 'line', line: '/rewind' });
    // At a y/n question Esc backs out at once, as before.
    const question = editor.read('ok? ', { remember: false });
    type('\x1b');
    assert.deepEqual(await question, { kind: 'interrupt', hadText: false });
  });

  test('Ctrl-D at an empty prompt ends input; with text it deletes forward', async () => {
    const { editor, type } = start();
    const read = editor.read('› ');
    type('ab\x1b[D\x04\r');
    assert.deepEqual(await read, { kind: 'line', line: 'a' });
    const second = editor.read('› ');
    type('\x04');
    assert.deepEqual(await second, { kind: 'eof' });
  });

  test('↑/↓ move between lines first, then through history; ↓ brings the draft back', async () => {
    const { editor, type } = start({ history: ['newest', 'older'] });
    const read = editor.read('› ');
    type('ab');
    type('\ncd');
    type('\x1b[A'); // to the first line
    type('X');
    type('\x1b[A\x1b[A'); // history: newest, then older
    type('\x1b[B\x1b[B'); // newest, then the draft
    type('\r');
    assert.deepEqual(await read, { kind: 'line', line: 'abX\ncd' });
  });

  test('typing / lists the matching commands with descriptions; Tab completes', async () => {
    const { editor, output, type } = start();
    const read = editor.read('› ');
    type('/');
    assert.match(output.written, /\/help +this list\r\n +\/model +show or switch the model/);
    type('m\t');
    await new Promise((resolve) => setImmediate(resolve));
    type('\r');
    assert.deepEqual(await read, { kind: 'line', line: '/model ' });
  });

  test('Tab and Enter in one read send the completed command; a key after them goes to the type-ahead', async () => {
    const { editor, type } = start();
    const read = editor.read('› ');
    type('/mo\t\rx');
    assert.deepEqual(await read, { kind: 'line', line: '/model ' });
    // The x typed after Enter waits, as type-ahead does, for the next prompt.
    const next = editor.read('› ');
    type('\r');
    assert.deepEqual(await next, { kind: 'line', line: 'x' });
  });

  test('a resize redraws from the top of the input, counting the rows the terminal re-wrapped', async () => {
    const { editor, output, type } = start({ columns: 40 });
    void editor.read('› ');
    type('x'.repeat(60));
    output.columns = 20;
    output.written = '';
    output.emit('resize');
    // 38 columns on the first row re-wrap into 2, the cursor (column 24 of the second row) into a third.
    assert.ok(output.written.startsWith('\r\x1b[3A\x1b[J'), JSON.stringify(output.written.slice(0, 20)));
  });
});
