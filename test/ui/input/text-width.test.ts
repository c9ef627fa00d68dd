import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { graphemes, graphemeWidth, textWidth } from '../../../src/shared/text/text-width.ts';

describe('graphemes and terminal widths', { timeout: 5_000 }, () => {
  test('a family emoji, a flag and an accented letter are one grapheme each', () => {
    assert.deepEqual(graphemes('👨‍👩‍👧🇨🇳e\u0301x'), ['👨‍👩‍👧', '🇨🇳', 'e\u0301', 'x']);
  });

  test('a styled row splits as Intl.Segmenter splits it, ESC a grapheme of its own', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    for (const row of ['\x1b[2mask mode · shift+tab to switch\x1b[22m', '\x1b[1m北京\x1b[0m ⠋ │ ok', '\x1b[31m\x1b[0m']) {
      assert.deepEqual(graphemes(row), Array.from(segmenter.segment(row), (part) => part.segment), JSON.stringify(row));
    }
  });

  test('CJK, kana, hangul, full-width forms and emoji take two columns', () => {
    for (const wide of ['中', 'あ', '한', 'Ａ', '？', '😀', '👨‍👩‍👧', '🇨🇳', '❤️', '1️⃣', '⚡']) assert.equal(graphemeWidth(wide), 2, wide);
  });

  test('Latin, accented letters, half-width katakana and text-style symbols take one', () => {
    for (const narrow of ['a', 'e\u0301', 'ｱ', '❤', '→', '·']) assert.equal(graphemeWidth(narrow), 1, narrow);
  });

  test('a lone combining mark or a zero-width joiner takes none', () => {
    assert.equal(graphemeWidth('\u0301'), 0);
    assert.equal(graphemeWidth('\u200d'), 0);
  });

  test('a mixed line adds up', () => {
    assert.equal(textWidth('北京 ok 😀 café'), 4 + 1 + 2 + 1 + 2 + 1 + 4);
  });
});
