import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { layOut, placeAfterResize } from '../../../src/ui/input/layout.ts';

describe('layOut', { timeout: 5_000 }, () => {
  test('typed newlines start indented rows under the prompt', () => {
    const layout = layOut('› ', 'one\ntwo', 'one\ntw'.length, 40);
    assert.deepEqual(layout.rows, ['› one', '  two']);
    assert.deepEqual(layout.cursor, { row: 1, column: 4 });
  });

  test('a wide character that does not fit moves whole to the next row', () => {
    const layout = layOut('› ', 'abc中文x', 4, 6);
    assert.deepEqual(layout.rows, ['› abc', '  中文', '  x']);
    assert.deepEqual(layout.widths, [5, 6, 3]);
    assert.deepEqual(layout.cursor, { row: 1, column: 4 });
  });

  test('a cursor at the end of a full row is shown at the start of the next', () => {
    const layout = layOut('› ', 'abcdef', 6, 8);
    assert.deepEqual(layout.rows, ['› abcdef', '  ']);
    assert.deepEqual(layout.cursor, { row: 1, column: 2 });
  });

  test('a long prompt wraps and is not used as the indent', () => {
    const layout = layOut('write hello.txt? [y]es › ', 'y', 1, 12);
    assert.equal(layout.rows.length, 3);
    assert.equal(layout.rows.join(''), 'write hello.txt? [y]es › y');
  });

  test('after the terminal re-wraps rows for a narrower width, the cursor row is counted again', () => {
    const layout = layOut('› ', `${'x'.repeat(100)}\nend`, 103 + 1, 120);
    assert.deepEqual(layout.cursor, { row: 1, column: 5 });
    assert.deepEqual(placeAfterResize(layout, 60), { row: 2, column: 5 });
  });
});
