import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attachedFileBlock, splitAttachedFiles } from '../../src/files/attached-file.ts';

test('what was typed and the files attached after it come apart again', () => {
  const message = `read @a.md and @src/b.ts${attachedFileBlock('a.md', '# A\n\n<file path="inner">\nx')}${attachedFileBlock('src/b.ts', 'export {};\n')}`;
  assert.deepEqual(splitAttachedFiles(message), { typed: 'read @a.md and @src/b.ts', files: ['a.md', 'src/b.ts'] });
});

test('a message without blocks, or with one that does not end it, is left whole', () => {
  assert.deepEqual(splitAttachedFiles('plain 你好'), { typed: 'plain 你好', files: [] });
  const unfinished = 'look:\n\n<file path="x">\nnot closed';
  assert.deepEqual(splitAttachedFiles(unfinished), { typed: unfinished, files: [] });
});
