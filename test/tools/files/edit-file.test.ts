import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createEditFileTool, describeEdit, type EditFileInput } from '../../../src/tools/files/edit-file.ts';

const root = mkdtempSync(join(tmpdir(), 'sylvan-edit-'));
after(() => rmSync(root, { recursive: true, force: true }));
const outside = mkdtempSync(join(tmpdir(), 'sylvan-edit-outside-'));
after(() => rmSync(outside, { recursive: true, force: true }));

const tool = createEditFileTool({ workspaceRoot: root });
const edit = (input: EditFileInput): Promise<string> =>
  (tool.execute as (input: unknown, options: unknown) => Promise<string>)(input, { toolCallId: 'call-1', messages: [] });

describe('edit_file', { timeout: 20_000 }, () => {
  test('one match is replaced exactly; CRLF line ends, the byte-order mark and the mode are kept', async () => {
    const file = join(root, 'windows.txt');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first line\r\nsecond line\r\nthird line\r\n')]));
    chmodSync(file, 0o751);
    const result = await edit({ path: 'windows.txt', old_text: 'second line\nthird', new_text: 'line two\nline 2.5\nthird' });
    assert.equal(result, 'Edited windows.txt: replaced 1 occurrence at line 2.');
    const bytes = readFileSync(file);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.equal(bytes.subarray(3).toString('utf8'), 'first line\r\nline two\r\nline 2.5\r\nthird line\r\n');
    assert.equal(statSync(file).mode & 0o777, 0o751);
    assert.deepEqual(readdirSync(root).filter((name) => name.endsWith('.tmp')), [], 'a temporary file was left behind');
  });

  test('an LF file stays LF and a file without a byte-order mark gets none', async () => {
    const file = join(root, 'unix.ts');
    writeFileSync(file, 'const a = 1;\nconst b = 2;\n');
    await edit({ path: 'unix.ts', old_text: 'const b = 2;', new_text: 'const b = 3;' });
    assert.equal(readFileSync(file, 'utf8'), 'const a = 1;\nconst b = 3;\n');
  });

  test('zero matches: an error that says to copy the text exactly and points at a near line; the file is unchanged', async () => {
    const file = join(root, 'indent.py');
    writeFileSync(file, 'def f():\n    return 1\n');
    await assert.rejects(edit({ path: 'indent.py', old_text: 'return 1\n  ', new_text: 'return 2' }), (error: Error) => {
      assert.match(error.message, /old_text was not found in indent\.py/);
      assert.match(error.message, /copy the text exactly/);
      assert.match(error.message, /line 2/);
      return true;
    });
    assert.equal(readFileSync(file, 'utf8'), 'def f():\n    return 1\n');
  });

  test('two matches without replace_all: an error naming the lines and both ways out; with replace_all both change', async () => {
    const file = join(root, 'twice.txt');
    writeFileSync(file, 'alpha\nbeta\nalpha\n');
    await assert.rejects(edit({ path: 'twice.txt', old_text: 'alpha', new_text: 'gamma' }), (error: Error) => {
      assert.match(error.message, /occurs 2 times in twice\.txt \(at lines 1, 3\)/);
      assert.match(error.message, /quote more of the surrounding lines/);
      assert.match(error.message, /replace_all/);
      return true;
    });
    assert.equal(readFileSync(file, 'utf8'), 'alpha\nbeta\nalpha\n');
    assert.match(await edit({ path: 'twice.txt', old_text: 'alpha', new_text: 'gamma', replace_all: true }), /replaced 2 occurrences/);
    assert.equal(readFileSync(file, 'utf8'), 'gamma\nbeta\ngamma\n');
  });

  test('a path outside the workspace, through a link, or to a secret file is refused and nothing is written', async () => {
    writeFileSync(join(outside, 'target.txt'), 'keep\n');
    symlinkSync(outside, join(root, 'out-link'));
    writeFileSync(join(root, '.env'), 'API_KEY=abc\n');
    await assert.rejects(edit({ path: '../x.txt', old_text: 'a', new_text: 'b' }), /outside the workspace/);
    await assert.rejects(edit({ path: join(outside, 'target.txt'), old_text: 'keep', new_text: 'lost' }), /outside the workspace/);
    await assert.rejects(edit({ path: 'out-link/target.txt', old_text: 'keep', new_text: 'lost' }), /outside the workspace/);
    await assert.rejects(edit({ path: '.env', old_text: 'abc', new_text: 'xyz' }), /refused: it may hold secrets/);
    assert.equal(readFileSync(join(outside, 'target.txt'), 'utf8'), 'keep\n');
    assert.equal(readFileSync(join(root, '.env'), 'utf8'), 'API_KEY=abc\n');
  });

  test('a missing file, a binary file and an empty old_text give errors the model can act on', async () => {
    await assert.rejects(edit({ path: 'nope.txt', old_text: 'a', new_text: 'b' }), /does not exist.*write_file/);
    writeFileSync(join(root, 'image.bin'), Buffer.from([1, 0, 2, 0]));
    await assert.rejects(edit({ path: 'image.bin', old_text: 'a', new_text: 'b' }), /binary/);
    await assert.rejects(edit({ path: 'unix.ts', old_text: '', new_text: 'b' }), /old_text is empty/);
  });

  test('the approval preview is a unified diff of the change, sanitised', async () => {
    writeFileSync(join(root, 'diff.txt'), 'one\ntwo\nthree\nfour\n');
    const description = await describeEdit(root, { path: 'diff.txt', old_text: 'two', new_text: 'TWO\x1b[2J' });
    assert.equal(description.summary, 'edit_file diff.txt (1 replacement)');
    assert.equal(description.previewFormat, 'diff');
    assert.equal(description.preview, ['--- a/diff.txt', '+++ b/diff.txt', '@@ -1,4 +1,4 @@', ' one', '-two', '+TWO␛[2J', ' three', ' four'].join('\n'));
    assert.equal(readFileSync(join(root, 'diff.txt'), 'utf8'), 'one\ntwo\nthree\nfour\n', 'describing changed the file');
  });

  test('the approval summary of an edit that will fail says why', async () => {
    const description = await describeEdit(root, { path: '.env', old_text: 'a', new_text: 'b' });
    assert.match(description.summary, /^edit_file \.env — will be refused: .*secrets/);
    assert.equal(description.preview, '');
  });
});
