import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { type AgentEvent } from '../../src/agent/loop/events.ts';
import { emptyUsage } from '../../src/shared/token-usage.ts';
import { LineEditor } from '../../src/ui/input/editor/line-editor.ts';
import { TerminalRenderer } from '../../src/ui/render/terminal-renderer.ts';
import { FakeInput, FakeOutput } from '../helpers/fake-terminal.ts';
import { terminalAfter } from '../helpers/screen-model.ts';

const LEFT = '\x1b[D';
const turnEnd = (stopReason: 'completed' | 'aborted' = 'completed'): AgentEvent => ({ type: 'turn-end', stopReason, usage: emptyUsage(), steps: 1 });

let editors: LineEditor[] = [];
afterEach(() => {
  for (const editor of editors) editor.close();
  editors = [];
});

/** The line editor and a turn's renderer on one terminal, as the REPL puts them; the screen is what was drawn after the first prompt. */
function setup(columns = 60) {
  const input = new FakeInput();
  const output = new FakeOutput();
  output.columns = columns;
  let clock = 1_000;
  const editor = new LineEditor({ input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream, history: [] });
  editors.push(editor);
  // A frame for each chunk (frameMs 0): these tests look at the screen after each one.
  const renderer = new TerminalRenderer(output, { now: () => clock, typeAhead: editor.typeAhead, environment: { NO_COLOR: '1', TERM: 'xterm' }, frameMs: 0 });
  const start = output.written.length;
  return {
    editor,
    renderer,
    type: (keys: string) => input.emit('data', keys),
    advance: (ms: number) => (clock += ms),
    render: async (...events: AgentEvent[]) => {
      for (const event of events) await renderer.render(event);
    },
    /** The screen since the editor was made (its bracketed-paste switch left out), and the cursor. */
    terminal: () => terminalAfter(output.written.slice(start)),
    screen: () => terminalAfter(output.written.slice(start)).lines.join('\n'),
  };
}

describe('type-ahead in the live rows', { timeout: 10_000 }, () => {
  test('typed during a streaming answer: drawn under it with the cursor in it, edited, queued with Enter, erased when the turn ends', async () => {
    const { editor, renderer, type, render, screen, terminal } = setup();
    renderer.begin();
    await render({ type: 'text-delta', text: 'The answer so far' });
    assert.equal(screen(), 'The answer so far', 'nothing typed: no input row');
    type('helo');
    assert.equal(screen(), 'The answer so far\n› helo');
    type(`${LEFT}l`);
    assert.equal(screen(), 'The answer so far\n› hello');
    assert.deepEqual([terminal().row, terminal().column], [1, 6], 'the cursor after the inserted l, before the o');
    await render({ type: 'text-delta', text: ', and more' });
    assert.equal(screen(), 'The answer so far, and more\n› hello', 'the answer goes on above the input');
    type('\r');
    assert.equal(screen(), 'The answer so far, and more\nqueued: hello');
    type('next');
    assert.equal(screen(), 'The answer so far, and more\nqueued: hello\n› next');
    await render({ type: 'text-delta', text: '.' }, turnEnd());
    assert.equal(screen(), 'The answer so far, and more.\n', 'the live rows are gone; the answer stays');
    assert.deepEqual(await editor.read('› '), { kind: 'line', line: 'hello' }, 'the queued line is the next message');
  });

  test('a stopped turn gives the queued lines back, before what was being typed; nothing is sent', async () => {
    const { editor, renderer, type, render } = setup();
    renderer.begin();
    type('first\rsecond\rthird, half');
    await render(turnEnd('aborted'));
    editor.typeAhead.takeBack();
    const read = editor.read('› ');
    type(' done\r');
    assert.deepEqual(await read, { kind: 'line', line: 'first\nsecond\nthird, half done' });
  });

  test('a long paste queued during a turn stays one placeholder, in the queued row and when taken back', async () => {
    const { editor, renderer, type, screen } = setup();
    renderer.begin();
    const pasted = Array.from({ length: 8 }, (_, index) => `line ${index + 1}`).join('\n');
    type(`see \x1b[200~${pasted}\x1b[201~\r`);
    assert.match(screen(), /^queued: see \[pasted 8 lines\]$/m);
    editor.typeAhead.takeBack();
    renderer.close();
    const read = editor.read('› ');
    type('\r');
    assert.deepEqual(await read, { kind: 'line', line: `see ${pasted}` });
  });

  test('a wide line wraps within the width, and the cursor follows it', async () => {
    const { renderer, type, screen, terminal } = setup(30);
    renderer.begin();
    const typed = 'abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    type(typed);
    const rows = screen().split('\n');
    assert.deepEqual(rows.slice(1), [`› ${typed.slice(0, 27)}`, `  ${typed.slice(27)}`], 'laid out in 29 columns, under the status line');
    assert.deepEqual([terminal().row, terminal().column], [2, 15]);
    type('\x01');
    assert.deepEqual([terminal().row, terminal().column], [1, 2], 'Ctrl-A: back to the start, on the first row');
    renderer.close();
  });

  test('while an approval is asked, the typed-ahead text is put away and the menu gets the keys; it is back after', async () => {
    const { editor, renderer, type, screen } = setup();
    renderer.begin();
    type('yes');
    assert.match(screen(), /^› yes$/m);
    renderer.suspend();
    const picked = editor.choose('write_file(path: "a")?', [
      { key: 'y', label: 'Yes' },
      { key: 'n', label: 'No' },
    ]);
    assert.deepEqual(editor.typeAhead.view(59), { rows: [] }, 'nothing typed-ahead is drawn over the menu');
    type('n');
    assert.deepEqual(await picked, { kind: 'choice', key: 'n' });
    renderer.resume();
    assert.match(screen(), /^› yes$/m, 'the typed-ahead text is shown again');
    renderer.close();
  });

  test('a retry counts down in the status line, then waits for the model again', async () => {
    const { renderer, render, advance, screen, type } = setup(80);
    renderer.begin();
    await render({ type: 'retry', attempt: 1, maxRetries: 3, delayMs: 2_000, reason: 'rate-limited', status: 429 });
    assert.equal(screen(), '⠋ rate limited (429) · retrying (1/3) in 2 s · esc to cancel');
    advance(1_200);
    type('x');
    assert.equal(screen(), '⠋ rate limited (429) · retrying (1/3) in 1 s · esc to cancel\n› x');
    advance(1_000);
    type('y');
    assert.equal(screen(), '⠋ Waiting for the model… · retry 1/3 (0s · esc to cancel)\n› xy');
    await render({ type: 'retry', attempt: 2, maxRetries: 3, delayMs: 4_000, reason: 'network' });
    assert.match(screen(), /^⠋ network error · retrying \(2\/3\) in 4 s · esc to cancel$/m);
    renderer.close();
  });

  test('a Ctrl-C at the prompt within a second of the one that stopped the turn quits, the restored text notwithstanding', async () => {
    let clock = 0;
    const input = new FakeInput();
    const output = new FakeOutput();
    const editor = new LineEditor({ input: input as unknown as NodeJS.ReadStream, output: output as unknown as NodeJS.WriteStream, history: [], now: () => clock });
    editors.push(editor);
    const unsubscribe = editor.onInterrupt(() => {});
    input.emit('data', 'queued\r\x03');
    unsubscribe();
    editor.typeAhead.takeBack();
    clock += 400;
    const read = editor.read('› ');
    input.emit('data', '\x03');
    assert.deepEqual(await read, { kind: 'interrupt', hadText: false });

    clock += 5_000;
    const later = editor.read('› ');
    input.emit('data', 'kept\x03');
    input.emit('data', 'again\r');
    assert.deepEqual(await later, { kind: 'line', line: 'again' }, 'later, Ctrl-C clears the line as usual');
  });
});
