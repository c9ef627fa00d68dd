import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startTerminal, type Terminal } from '../helpers/terminal.ts';

let pane: Terminal | undefined;
let workspace: string | undefined;
after(async () => {
  await pane?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

const count = (screen: string, text: string) => screen.split(text).length - 1;
const LONG = 'this is a long line of text that will wrap around when the window gets narrow 这是一段很长的中文文字用来测试宽度变化时的重绘是否正确';

test('resizing with a wrapped multi-line input redraws it once, below an untouched usage line', { timeout: 60_000 }, async () => {
  workspace = tempWorkspace();
  pane = await startTerminal({ cwd: workspace, env: { SYLVAN_HOME: join(workspace, '.home'), SYLVAN_MOCK_DELAY_MS: '0' }, columns: 120, rows: 30 });
  // capture-pane drops trailing spaces: the empty prompt is a row holding only ›.
  await pane.expectScreen(/^›$/m, 'the first prompt');
  pane.type('(2+3)*4 等于多少？');
  pane.keys('Enter');
  await pane.expectScreen((screen) => /· .* in · .* out/.test(screen) && /\n›$/m.test(screen), 'the answer, its usage line and the next prompt');
  pane.type(LONG);
  pane.keys('C-j');
  pane.type('second');
  const wide = await pane.expectScreen((screen) => screen.includes('  second'), 'the multi-line input at 120 columns');
  assert.match(wide, /› this is a long line .* 这是一段很长的中文文字用来测试宽度变化时\n {2}的重绘是否正确\n {2}second/);

  for (const columns of [60, 120, 40]) {
    const before = pane.output.length;
    await pane.resize(columns);
    // tmux reflows the screen itself at once; only the CLI writing the input again says it redrew.
    const screen = await pane.expectScreen(
      (text) => pane!.output.slice(before).includes('second') && text.split('\n').every((row) => [...row].length <= columns) && text.includes('  second\n'),
      `the input redrawn at ${columns} columns`,
    );
    assert.equal(count(screen, '› this is'), 1, `one prompt at ${columns} columns:\n${screen}`);
    assert.equal(count(screen, '  second'), 1, `one copy of the input at ${columns} columns:\n${screen}`);
    assert.match(screen, /· [\d,]+ in · [\d,]+ out · context/, `the usage line kept at ${columns} columns:\n${screen}`);
    assert.ok(screen.indexOf('· ') < screen.indexOf('› this is'), 'the usage line above the input');
    const input = screen.slice(screen.indexOf('› this is'), screen.indexOf('  second'));
    // Every character once, in order (spaces at a wrap may fall at a row's end, which capture drops).
    assert.equal(input.replace(/^› /, '').replace(/\s+/g, ''), LONG.replace(/\s+/g, ''), `the input whole at ${columns} columns`);
  }
});
