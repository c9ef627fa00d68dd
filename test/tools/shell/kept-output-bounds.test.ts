import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BoundedOutput } from '../../../src/tools/shell/bounded-output.ts';

// The kept head and tail of a command's output stay exactly at their limits when output arrives in
// many small chunks.

describe('the kept head and tail of a stream', () => {
  for (const size of [1, 7, 64, 99]) {
    test(`in chunks of ${size} bytes: exactly the first 100 and last 100 bytes are kept`, () => {
      const output = new BoundedOutput(100, 100);
      // No newline, so text() cuts at the byte limits themselves rather than at a line end.
      const stream = Buffer.from(`${'H'.repeat(150)}${'m'.repeat(5_000)}${'T'.repeat(150)}`);
      for (let at = 0; at < stream.length; at += size) output.add(stream.subarray(at, at + size));
      const [head, note, tail, ...rest] = output.text().split('\n');
      assert.deepEqual(rest, []);
      assert.equal(head, 'H'.repeat(100), `head of ${head?.length} bytes`);
      assert.equal(tail, 'T'.repeat(100), `tail of ${tail?.length} bytes`);
      assert.match(note ?? '', /^\[… 5,100 bytes \(0 lines\) cut from the middle of 5,300 bytes …\]$/);
    });
  }
});
