import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { displayWidth, fitItems, wrapStyled, wrapToScreen } from '../../src/shared/text/display-width.ts';
import { modeFooter } from '../../src/ui/render/mode-display.ts';
import { FilterList } from '../../src/ui/input/filter-list.ts';

describe('rows fitted to the terminal', () => {
  test('CJK wraps between any two characters, but a closing bracket, comma or full stop never starts a row', () => {
    // The mock's first answer at 60 columns ended a row with 「…文件 and began the next with 」.
    const line = '• 文件：「帮我读一下 package.json」「列出 src 目录下的文件」。动手：「运行 ls -la」，好。';
    for (let width = 8; width <= 60; width++) {
      const rows = wrapStyled(line, width);
      assert.equal(rows.join('').replace(/ /g, ''), line.replace(/ /g, ''), `width ${width}: text lost or moved`);
      for (const row of rows) {
        assert.ok(displayWidth(row) <= width, `width ${width}: ${JSON.stringify(row)} is wider`);
        assert.doesNotMatch(row, /^[，。、」）]/, `width ${width}: ${JSON.stringify(rows)}`);
      }
    }
  });

  test("plan mode's footer at 120 columns keeps its end, the summary gives way", () => {
    const footer = fitItems(modeFooter('plan', false, 'main'), 119);
    assert.ok(displayWidth(footer) <= 119, footer);
    assert.match(footer, /^git: main · plan mode · .* · shift\+tab to switch$|^git: main · plan mode · shift\+tab to switch$/);
  });

  test("the resume picker's key row at 60 columns ends with the whole \"Esc starts a new session\"", () => {
    const list = new FilterList({
      prompt: 'Resume › ',
      items: Array.from({ length: 3 }, (_, index) => ({ title: `session ${index}`, detail: '2 messages' })),
      hint: 'resumes · Esc starts a new session',
    });
    const keys = list.rows(59, (text) => text).at(-1)!;
    assert.ok(displayWidth(keys) <= 59, keys);
    assert.match(keys, /· Esc starts a new session$/);
  });

  test('a long line breaks between words, each row after the first under its indent', () => {
    const names = 'read_file, list_files, search_files, write_file, edit_file, run_command, get_weather, calculate, todo_write';
    const rows = wrapToScreen(`  ${names}`, 59);
    assert.ok(rows.length > 1 && rows.every((row) => displayWidth(row) <= 59 && row.startsWith('  ')), rows.join('\n'));
    assert.equal(rows.map((row) => row.trim()).join(' '), names);
  });
});
