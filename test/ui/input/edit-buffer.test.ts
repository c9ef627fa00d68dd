import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EditBuffer } from '../../../src/ui/input/edit-buffer.ts';

const buffer = (text: string, cursor = text.length) => {
  const edit = new EditBuffer();
  edit.set(text, cursor);
  return edit;
};

describe('EditBuffer', { timeout: 5_000 }, () => {
  test('Backspace removes one whole grapheme: CJK, emoji, a letter with its accent', () => {
    const edit = buffer('中文👨‍👩‍👧e\u0301');
    edit.backspace();
    assert.equal(edit.text, '中文👨‍👩‍👧');
    edit.backspace();
    assert.equal(edit.text, '中文');
    edit.backspace();
    assert.equal(edit.text, '中');
  });

  test('← then Backspace edits inside a CJK line', () => {
    const edit = buffer('北京今天天气怎么样');
    edit.left();
    edit.left();
    edit.backspace();
    assert.equal(edit.text, '北京今天天气么样');
    edit.insert('什');
    assert.equal(edit.text, '北京今天天气什么样');
  });

  test('→ and Delete step over an emoji as one', () => {
    const edit = buffer('a🇨🇳b', 1);
    edit.deleteForward();
    assert.equal(edit.text, 'ab');
    edit.set('a🇨🇳b', 1);
    edit.right();
    assert.equal(edit.cursor, 1 + '🇨🇳'.length);
  });

  test('Home, End, Ctrl-U and Ctrl-K work on the current line of multi-line text', () => {
    const edit = buffer('first line\nsecond line\nthird', 'first line\nsecond'.length);
    edit.home();
    assert.equal(edit.cursor, 'first line\n'.length);
    edit.end();
    assert.equal(edit.cursor, 'first line\nsecond line'.length);
    edit.cursor = 'first line\nsecond'.length;
    edit.killAfter();
    assert.equal(edit.text, 'first line\nsecond\nthird');
    edit.killBefore();
    assert.equal(edit.text, 'first line\n\nthird');
  });

  test('word moves and Ctrl-W use word boundaries, English and CJK', () => {
    const edit = buffer('hello big world');
    edit.wordLeft();
    assert.equal(edit.cursor, 'hello big '.length);
    edit.wordLeft();
    assert.equal(edit.cursor, 'hello '.length);
    edit.wordRight();
    assert.equal(edit.cursor, 'hello big'.length);
    edit.end();
    edit.deleteWordBefore();
    assert.equal(edit.text, 'hello big ');
    const chinese = buffer('我们今天去北京');
    chinese.wordLeft();
    assert.ok(chinese.cursor > 0 && chinese.cursor < chinese.text.length, `stopped inside the sentence at ${chinese.cursor}`);
  });
});
