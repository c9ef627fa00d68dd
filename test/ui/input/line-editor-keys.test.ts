import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { LineEditor } from '../../../src/ui/input/editor/line-editor.ts';
import { FakeInput, FakeOutput } from '../../helpers/fake-terminal.ts';

let editors: LineEditor[] = [];
const folders: string[] = [];
afterEach(() => {
  for (const editor of editors) editor.close();
  editors = [];
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function start(history: string[] = []) {
  const input = new FakeInput();
  const output = new FakeOutput();
  output.columns = 100;
  const editor = new LineEditor({ input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream, history });
  editors.push(editor);
  return { editor, input, output, type: (keys: string) => input.emit('data', keys) };
}

/** What the last draw shows: the text after the last "clear to the end of the screen". */
const lastDraw = (output: FakeOutput) => output.written.slice(output.written.lastIndexOf('\x1b[J') + 3);

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const HISTORY = ['git status please', 'what is 6*7?', 'show me the GIT log', 'hello'];

describe('Ctrl-R: reverse incremental search of the input history', { timeout: 10_000 }, () => {
  test('finds the newest match as typed, older ones with Ctrl-R again, and Enter sends the match', async () => {
    const { editor, output, type } = start(HISTORY);
    const read = editor.read('› ');
    type('\x12');
    assert.match(lastDraw(output), /^\(reverse-i-search\)'': /);
    type('git');
    assert.match(lastDraw(output), /^\(reverse-i-search\)'git': git status please/, 'newest first, case-insensitive');
    type('\x12');
    assert.match(lastDraw(output), /^\(reverse-i-search\)'git': show me the GIT log/);
    type('\x12');
    assert.match(lastDraw(output), /^\(failed reverse-i-search\)'git': show me the GIT log/, 'nothing older: failed, the last match kept');
    type('\x7f');
    assert.match(lastDraw(output), /^\(reverse-i-search\)'git': show me the GIT log/, 'Backspace takes back the last step');
    type('\x7f\x7f');
    assert.match(lastDraw(output), /^\(reverse-i-search\)'gi': git status please/, 'then one character');
    type('\r');
    assert.deepEqual(await read, { kind: 'line', line: 'git status please' });
  });

  test('Esc and Ctrl-G cancel with the buffer as it was; → or Ctrl-E takes the match into the buffer to edit', async () => {
    const { editor, output, type } = start(HISTORY);
    const read = editor.read('› ');
    type('half typed');
    type('\x126*7');
    assert.match(lastDraw(output), /'6\*7': what is 6\*7\?/);
    type('\x1b');
    assert.match(lastDraw(output), /^› half typed/);
    type('\x12hel\x07');
    assert.match(lastDraw(output), /^› half typed/, 'Ctrl-G in a search cancels it (no editor)');
    type('\x12log');
    type('\x1b[C');
    assert.match(lastDraw(output), /^› show me the GIT log/);
    assert.ok(lastDraw(output).endsWith('\r\x1b[19C'), 'the cursor at the match, moved one right by →, as readline leaves it');
    type('\x15\x12log\x05!\r');
    assert.deepEqual(await read, { kind: 'line', line: 'show me the GIT log!' });
  });

  test('Ctrl-R Ctrl-R with nothing typed searches for the last search again; lines sent this session are found', async () => {
    const { editor, output, type } = start(HISTORY);
    let read = editor.read('› ');
    type('新的问题：北京天气\r');
    await read;
    read = editor.read('› ');
    type('\x12天气');
    assert.match(lastDraw(output), /'天气': 新的问题：北京天气/);
    type('\x1b');
    type('\x12\x12');
    assert.match(lastDraw(output), /^\(reverse-i-search\)'': /, 'nothing accepted yet: no last search');
    type('\x03');
    type('\x12what\x1b[D');
    type('\x12\x12');
    assert.match(lastDraw(output), /'what': what is 6\*7\?/);
    type('\x1b');
    type('\x15\r');
    await read;
  });
});

describe('Ctrl-G and Ctrl-X Ctrl-E: the input in $EDITOR', { timeout: 20_000 }, () => {
  const saved = { VISUAL: process.env.VISUAL, EDITOR: process.env.EDITOR };
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  function editorScript(body: string): string {
    const folder = mkdtempSync(join(tmpdir(), 'sylvan-editor-test-'));
    folders.push(folder);
    const path = join(folder, 'editor.sh');
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  test('the editor gets the terminal out of raw mode; what it saved becomes the buffer, not sent', async () => {
    const log = join(tmpdir(), `sylvan-editor-raw-${process.pid}.log`);
    delete process.env.VISUAL;
    process.env.EDITOR = editorScript(`printf 'line one\\nline two\\n' > "$1"; echo done > '${log}'`);
    const { editor, input, output, type } = start();
    let sent = false;
    void editor.read('› ').then(() => (sent = true));
    type('draft');
    let rawWhileEditing: boolean | undefined;
    const setRawMode = input.setRawMode.bind(input);
    input.setRawMode = (mode: boolean) => {
      if (!mode) rawWhileEditing = false;
      return setRawMode(mode);
    };
    type('\x07');
    await until(() => output.written.includes('line two'), 'the edited text drawn');
    assert.equal(rawWhileEditing, false, 'raw mode was off while the editor ran');
    assert.equal(input.raw, true, 'and on again after');
    assert.match(lastDraw(output), /^› line one\r\n {2}line two/);
    assert.equal(sent, false);
    assert.equal(readFileSync(log, 'utf8').trim(), 'done');
    rmSync(log, { force: true });

    // Ctrl-X Ctrl-E does the same; the editor is given the buffer as it is.
    process.env.EDITOR = editorScript(`{ printf 'again: '; cat "$1"; } > "$1.new"; mv "$1.new" "$1"`);
    type('\x18\x05');
    await until(() => output.written.includes('again: line one'), 'the second edit drawn');
  });

  test('an editor that cannot start leaves the input as it was, with one line saying so', async () => {
    process.env.VISUAL = 'no-such-editor-anywhere-1';
    process.env.EDITOR = 'no-such-editor-anywhere-2';
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const { editor, output, type } = start();
      void editor.read('› ');
      type('keep me');
      type('\x07');
      await until(() => output.written.includes('No editor could be started'), 'the failure line');
      assert.match(output.written, /No editor could be started \(tried no-such-editor-anywhere-1, no-such-editor-anywhere-2, vi\); set VISUAL or EDITOR/);
      await until(() => lastDraw(output).startsWith('› keep me'), 'the input drawn again');
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('pick: a list filtered as the user types', { timeout: 10_000 }, () => {
  const items = [
    { title: 'Fix the login test', detail: '5 min ago · 2 turns · main' },
    { title: '重构解析器', detail: 'yesterday · 1 turn · feature/parser', keywords: 'feature/parser' },
    { title: 'Write the README', detail: '3 days ago · 4 turns' },
  ];

  test('typing narrows it, arrows move the mark, Enter picks; the message being typed waits', async () => {
    const { editor, output, type } = start();
    void editor.read('› ');
    type('half a message');
    const picked = editor.pick({ prompt: 'Resume a session › ', items, hint: 'resumes · Esc cancels' });
    assert.match(lastDraw(output), /^Resume a session › \r\n❯ Fix the login test {2}/);
    assert.match(lastDraw(output), /3 · type to filter · ↑\/↓ Enter resumes · Esc cancels/);
    type('PARSER');
    assert.match(lastDraw(output), /❯ 重构解析器/);
    assert.match(lastDraw(output), /1 of 3/);
    assert.doesNotMatch(lastDraw(output), /login|README/);
    type('\x15');
    type('\x1b[B\x1b[B\x1b[B');
    assert.match(lastDraw(output), /❯ Write the README/, 'the mark stops at the last row');
    type('\r');
    assert.equal(await picked, 2);
    type('!');
    assert.match(lastDraw(output), /^› half a message!/, 'the message is back in the buffer');
  });

  test('Esc, Ctrl-C and Ctrl-D cancel; Enter with nothing matching does nothing', async () => {
    const { editor, output, type } = start();
    for (const key of ['\x1b', '\x03', '\x04']) {
      const picked = editor.pick({ prompt: 'Pick › ', items, hint: 'picks' });
      if (key === '\x1b') {
        type('zzz');
        assert.match(lastDraw(output), /nothing matches "zzz"/);
        type('\r');
        type('\x15');
      }
      type(key);
      assert.equal(await picked, undefined);
    }
  });
});
