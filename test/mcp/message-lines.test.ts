import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageLines, MessageTooLargeError } from '../../src/mcp/message-lines.ts';

describe('MessageLines: a stdio server\'s stdout split into messages', () => {
  it('joins a line split across chunks, splits several in one chunk, and drops a trailing \\r', () => {
    const lines = new MessageLines(100);
    assert.deepEqual(lines.push(Buffer.from('{"a":')), []);
    assert.deepEqual(lines.push(Buffer.from('1}\r\n{"b":2}\n{"c"')), ['{"a":1}', '{"b":2}']);
    assert.deepEqual(lines.push(Buffer.from(':3}\n')), ['{"c":3}']);
  });

  it('a multi-byte character split between chunks arrives whole', () => {
    const bytes = Buffer.from('"北京"\n');
    const lines = new MessageLines(100);
    assert.deepEqual([...lines.push(bytes.subarray(0, 2)), ...lines.push(bytes.subarray(2))], ['"北京"']);
  });

  it('an unfinished line past the bound throws once, keeps nothing, and takes nothing more', () => {
    const lines = new MessageLines(1_000);
    lines.push(Buffer.alloc(600, 0x78));
    assert.throws(() => lines.push(Buffer.alloc(600, 0x78)), MessageTooLargeError);
    assert.deepEqual(lines.push(Buffer.from('{"late":1}\n')), []);
  });

  it('a finished line past the bound is refused too, even in one chunk', () => {
    assert.throws(() => new MessageLines(10).push(Buffer.from(`${'x'.repeat(11)}\n`)), /larger than/);
    assert.deepEqual(new MessageLines(10).push(Buffer.from(`${'x'.repeat(10)}\n`)), ['x'.repeat(10)]);
  });
});
