import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createWriteFileTool, describeWrite } from '../../../src/tools/files/write-file.ts';

let workspace: string;
let outside: string;

async function write(input: { path: string; content: string }, secretPatterns?: string[]): Promise<string> {
  const writeTool = createWriteFileTool({ workspaceRoot: workspace, secretPatterns });
  const result = await writeTool.execute(input, { toolCallId: 'call-1', messages: [], context: {} });
  assert.equal(typeof result, 'string');
  return result as string;
}

before(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'sylvan-write-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'sylvan-write-outside-'));
  await writeFile(path.join(outside, 'target.txt'), 'original\n');
  await symlink(path.join(outside, 'target.txt'), path.join(workspace, 'link-out.txt'));
  await symlink(outside, path.join(workspace, 'dir-out'));
  await symlink(path.join(outside, 'not-yet.txt'), path.join(workspace, 'dangling.txt'));
  await mkdir(path.join(workspace, 'folder'));
});

after(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('write_file', () => {
  test('creates a file and its missing parent folders', async () => {
    assert.equal(await write({ path: 'notes/2024/todo.md', content: 'one\ntwo\n' }), 'Wrote notes/2024/todo.md (2 lines, 8 bytes)');
    assert.equal(await readFile(path.join(workspace, 'notes/2024/todo.md'), 'utf8'), 'one\ntwo\n');
  });

  test('overwrites an existing file and says so', async () => {
    await write({ path: 'hello.txt', content: 'old\n' });
    assert.equal(await write({ path: 'hello.txt', content: 'new' }), 'Overwrote hello.txt (1 line, 3 bytes)');
    assert.equal(await readFile(path.join(workspace, 'hello.txt'), 'utf8'), 'new');
  });

  test('writes a unicode path, counting bytes not characters', async () => {
    assert.equal(await write({ path: '中文目录/笔记.md', content: '你好 🌲\n' }), 'Wrote 中文目录/笔记.md (1 line, 12 bytes)');
    assert.equal(await readFile(path.join(workspace, '中文目录', '笔记.md'), 'utf8'), '你好 🌲\n');
  });

  test('refuses paths outside the workspace and leaves the outside untouched', async () => {
    await assert.rejects(write({ path: '../escape.txt', content: 'x' }), /outside the workspace/);
    await assert.rejects(write({ path: path.join(outside, 'absolute.txt'), content: 'x' }), /outside the workspace/);
    await assert.rejects(write({ path: 'link-out.txt', content: 'x' }), /outside the workspace/);
    await assert.rejects(write({ path: 'dir-out/new.txt', content: 'x' }), /outside the workspace/);
    await assert.rejects(write({ path: 'dangling.txt', content: 'x' }), /symbolic link whose target does not exist/);
    assert.equal(await readFile(path.join(outside, 'target.txt'), 'utf8'), 'original\n');
    await assert.rejects(readFile(path.join(outside, 'not-yet.txt')), { code: 'ENOENT' });
    await assert.rejects(readFile(path.join(outside, 'new.txt')), { code: 'ENOENT' });
  });

  test('refuses secret files, built-in and custom', async () => {
    await assert.rejects(write({ path: '.env', content: 'KEY=1' }), /writing \.env is refused/);
    await assert.rejects(write({ path: 'keys/deploy.pem', content: 'x' }), /writing keys\/deploy\.pem is refused/);
    await assert.rejects(write({ path: 'vault.secret', content: 'x' }, ['*.secret']), /writing vault\.secret is refused/);
    assert.equal(await write({ path: '.env.example', content: 'KEY=\n' }), 'Wrote .env.example (1 line, 5 bytes)');
  });

  test('refuses a folder as the target', async () => {
    await assert.rejects(write({ path: 'folder', content: 'x' }), /folder is a folder; give a file path/);
  });
});

describe('describeWrite', () => {
  test('summarises a new file and previews its first lines', async () => {
    const content = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join('\n');
    const { summary, preview } = await describeWrite(workspace, { path: 'fresh/new.txt', content });
    assert.equal(summary, 'write_file fresh/new.txt (12 lines) — new file');
    assert.equal(preview, [...Array.from({ length: 10 }, (_, index) => `line ${index + 1}`), '… 2 more lines'].join('\n'));
  });

  test('says how many lines an overwrite replaces, and shows it as a diff against the file, long lines cut', async () => {
    await writeFile(path.join(workspace, 'existing.txt'), 'a\nb\nc\n');
    const { summary, preview, previewFormat } = await describeWrite(workspace, { path: 'existing.txt', content: `a\n${'y'.repeat(300)}\n` });
    assert.equal(summary, 'write_file existing.txt (2 lines) — overwrites existing 3 lines');
    assert.equal(previewFormat, 'diff');
    assert.equal(preview, ['--- a/existing.txt', '+++ b/existing.txt', '@@ -1,3 +1,2 @@', ' a', '-b', '-c', `+${'y'.repeat(200)}…`].join('\n'));
  });

  test('an overwrite of a CRLF file shows only the lines that change, and a lone \\r stays visible', async () => {
    await writeFile(path.join(workspace, 'crlf.txt'), 'one\r\ntwo\r\n');
    const { preview } = await describeWrite(workspace, { path: 'crlf.txt', content: 'one\r\nTWO\rhidden\r\n' });
    assert.match(preview, /^ one$/m);
    assert.match(preview, /^-two$/m);
    assert.match(preview, /^\+TWO␍hidden$/m);
  });

  test('warns instead of throwing when the write will be refused', async () => {
    const { summary } = await describeWrite(workspace, { path: '../../etc/passwd', content: 'x' });
    assert.match(summary, /^write_file \.\.\/\.\.\/etc\/passwd \(1 line\) — will be refused: path \.\.\/\.\.\/etc\/passwd is outside the workspace/);
    assert.match((await describeWrite(workspace, { path: '.env', content: '' })).summary, /will be refused: writing \.env is refused/);
  });

  test('previews empty content', async () => {
    assert.equal((await describeWrite(workspace, { path: 'blank.txt', content: '' })).preview, '(empty file)');
  });
});
