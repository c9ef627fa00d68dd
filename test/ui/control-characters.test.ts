import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sanitize, sanitizeLine } from '../../src/shared/text/sanitize.ts';
import { jsonEventLine } from '../../src/ui/print/json-event-line.ts';

// Every C1 control (U+0080–U+009F) and every bidi control (the marks U+200E/U+200F/U+061C,
// embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069) is shown as a visible symbol,
// each one checked rather than a sample; --json escapes them and U+2028/U+2029, so a line reader
// never splits a line and a terminal never acts on one.

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, n) => from + n);
const C1 = range(0x80, 0x9f);
const BIDI = [0x061c, 0x200e, 0x200f, ...range(0x202a, 0x202e), ...range(0x2066, 0x2069)];
const hex = (code: number) => code.toString(16).toUpperCase().padStart(4, '0');

describe('the sanitiser', () => {
  for (const [name, codes] of [['C1 controls', C1], ['bidi controls', BIDI]] as const) {
    test(`shows each of the ${codes.length} ${name} as <U+XXXX>, in text and in one-line displays`, () => {
      for (const code of codes) {
        const character = String.fromCodePoint(code);
        assert.equal(sanitize(`a${character}b`), `a<U+${hex(code)}>b`, `U+${hex(code)}`);
        assert.equal(sanitizeLine(`a${character}b`), `a<U+${hex(code)}>b`, `U+${hex(code)} (one line)`);
      }
    });
  }

  test('leaves ordinary text around them alone: CJK, accents, emoji, U+00A0', () => {
    assert.equal(sanitize('你好 café 🙂\u00a0ok'), '你好 café 🙂\u00a0ok');
  });
});

describe('a --json line', () => {
  const unsafe = [...C1, ...BIDI, 0x2028, 0x2029, 0x7f];
  const event = { type: 'text-delta' as const, text: unsafe.map((code) => `x${String.fromCodePoint(code)}`).join('') };

  test('has none of them raw, and parses back to the same text', () => {
    const line = jsonEventLine(event, false);
    for (const code of unsafe) assert.ok(!line.includes(String.fromCodePoint(code)), `U+${hex(code)} is raw in the line`);
    assert.ok(line.includes('\\u2028') && line.includes('\\u2029'), line);
    assert.deepEqual(JSON.parse(line), event);
  });

  test('is one line for a line reader, whatever the text holds', () => {
    const line = jsonEventLine({ type: 'text-delta', text: 'one\u2028two\u2029three\nfour' }, false);
    assert.deepEqual(line.split(/\r\n|[\n\r\u2028\u2029\u0085]/), [line]);
  });
});
