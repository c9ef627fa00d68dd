import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countOf, digits } from '../../src/shared/text/count-text.ts';

// Token counts, line counts and sizes are grouped by hand, not by ICU (which costs every process
// ~12 ms to set up): they must read exactly as the en-US locale writes them.
describe('counts as people read them', () => {
  test('an integer reads as en-US writes it, at every length and sign', () => {
    const samples = [0, 1, 7, 12, 999, 1_000, 1_234, 9_999, 10_000, 123_456, 1_000_000, 12_345_678, Number.MAX_SAFE_INTEGER];
    for (const value of [...samples, ...samples.filter((sample) => sample !== 0).map((sample) => -sample)]) assert.equal(digits(value), value.toLocaleString('en-US'), String(value));
    for (let value = 0; value < 20_000; value += 7) assert.equal(digits(value), value.toLocaleString('en-US'));
  });

  test('anything but a safe integer is left to the locale', () => {
    for (const value of [1234.5678, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) assert.equal(digits(value), value.toLocaleString('en-US'));
  });

  test('a count with its noun', () => {
    assert.equal(countOf(1, 'line'), '1 line');
    assert.equal(countOf(0, 'line'), '0 lines');
    assert.equal(countOf(12_345, 'file'), '12,345 files');
  });
});
