import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KeyDecoder, type Key } from '../../../src/ui/input/keys.ts';

const key = (name: string): Key => ({ kind: 'key', name } as Key);
const decode = (...chunks: string[]): Key[] => {
  const decoder = new KeyDecoder();
  return chunks.flatMap((chunk) => decoder.decode(chunk));
};

describe('KeyDecoder', { timeout: 5_000 }, () => {
  test('typed text arrives as one text key, Enter as return', () => {
    assert.deepEqual(decode('北京 ok\r'), [{ kind: 'text', text: '北京 ok' }, key('return')]);
  });

  test('every newline key: Ctrl-J, Alt+Enter, CSI-u Shift+Enter, xterm Shift+Enter', () => {
    assert.deepEqual(decode('\n', '\x1b\r', '\x1b[13;2u', '\x1b[27;2;13~'), [key('newline'), key('newline'), key('newline'), key('newline')]);
  });

  test('a bracketed paste is one paste key, even split across reads and with Enter inside', () => {
    assert.deepEqual(decode('\x1b[200~line 1\rline 2\n', 'line 3\x1b[20', '1~x'), [
      { kind: 'paste', text: 'line 1\rline 2\nline 3' },
      { kind: 'text', text: 'x' },
    ]);
  });

  test('Ctrl-O is its own key: it expands and collapses the last tool result', () => {
    assert.deepEqual(decode('ab\x0fc'), [{ kind: 'text', text: 'ab' }, key('toggle-output'), { kind: 'text', text: 'c' }]);
  });

  test('Shift+Tab (CSI Z, back-tab) is its own key, also split across reads', () => {
    assert.deepEqual(decode('\x1b[Z', '\x1b[', 'Z'), [key('shift-tab'), key('shift-tab')]);
  });

  test('an escape sequence cut between reads waits for its end', () => {
    assert.deepEqual(decode('\x1b[', '1;5D'), [key('word-left')]);
  });

  test('arrows, Home/End in their several forms, Delete, and words with Ctrl or Alt', () => {
    assert.deepEqual(decode('\x1b[A\x1b[B\x1b[C\x1b[D\x1bOH\x1b[F\x1b[1~\x1b[4~\x1b[3~\x1b[1;5C\x1b[1;3D\x1bb\x1bf'), [
      ...['up', 'down', 'right', 'left', 'home', 'end', 'home', 'end', 'delete', 'word-right', 'word-left', 'word-left', 'word-right'].map(key),
    ]);
  });

  test('control keys: Ctrl-A E U K W L C D, Backspace both ways, Tab', () => {
    assert.deepEqual(decode('\x01\x05\x15\x0b\x17\x0c\x03\x04\x7f\x08\t'), [
      ...['home', 'end', 'kill-before', 'kill-after', 'delete-word-before', 'clear-screen', 'interrupt', 'end-of-input', 'backspace', 'backspace', 'tab'].map(key),
    ]);
  });

  test('a lone ESC is the Esc key; unknown sequences are dropped, not typed', () => {
    assert.deepEqual(decode('\x1b'), [key('escape')]);
    assert.deepEqual(decode('\x1b[99~a'), [{ kind: 'text', text: 'a' }]);
  });
});
