import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createReadFileTool, MAX_READ_RESULT_CHARS } from '../../../src/tools/files/read-file.ts';

let workspace: string;
let outside: string;

async function readFile(input: { path: string; offset?: number; limit?: number }, secretPatterns?: string[]): Promise<string> {
  const readTool = createReadFileTool({ workspaceRoot: workspace, secretPatterns });
  const result = await readTool.execute(input, { toolCallId: 'call-1', messages: [], context: {} });
  assert.equal(typeof result, 'string');
  return result as string;
}

before(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'sylvan-read-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'sylvan-read-outside-'));
  await writeFile(path.join(workspace, 'hello.txt'), 'first\nsecond\r\nthird\n');
  await writeFile(path.join(workspace, 'long.txt'), Array.from({ length: 5000 }, (_, index) => `line ${index + 1}`).join('\n'));
  await writeFile(path.join(workspace, 'bundle.min.js'), `var a=${'x'.repeat(200_000)};`);
  await writeFile(path.join(workspace, 'package.tgz'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x41, 0x42]));
  await writeFile(path.join(workspace, 'latin1.bin'), Buffer.from(Array.from({ length: 400 }, (_, index) => 0x80 + (index % 100))));
  await writeFile(path.join(workspace, 'data.bin'), `${'plain text '.repeat(100)}\0${'more text '.repeat(100)}`);
  await writeFile(path.join(workspace, 'empty.txt'), '');
  await writeFile(path.join(workspace, '.env'), 'API_KEY=sk-secret\n');
  await writeFile(path.join(workspace, '.env.example'), 'API_KEY=\n');
  await writeFile(path.join(workspace, 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\n');
  await writeFile(path.join(workspace, 'vault.secret'), 'hunter2\n');
  await mkdir(path.join(workspace, '中文目录'));
  await writeFile(path.join(workspace, '中文目录', '笔记.md'), '# 笔记 🌲\n你好\n');
  await mkdir(path.join(workspace, 'docs'));
  await writeFile(path.join(outside, 'passwd'), 'root:x:0:0\n');
  await symlink(path.join(outside, 'passwd'), path.join(workspace, 'passwd-link'));
});

after(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('read_file', () => {
  test('starts with a summary line, then numbered lines', async () => {
    const result = await readFile({ path: 'hello.txt' });
    assert.equal(result, 'hello.txt (3 lines, 20 bytes)\n1\tfirst\n2\tsecond\n3\tthird');
  });

  test('windows a 5,000-line file with a note saying how to read on', async () => {
    const result = await readFile({ path: 'long.txt' });
    const lines = result.split('\n');
    assert.match(lines[0]!, /^long\.txt \(5,000 lines, \d+\.\d kB\)$/);
    assert.equal(lines[1], '  1\tline 1');
    assert.equal(lines[400], '400\tline 400');
    assert.equal(lines.at(-1), '[lines 1-400 of 5000; call read_file with offset 401 to read more]');
    assert.ok(result.length <= MAX_READ_RESULT_CHARS);
  });

  test('honours offset and limit', async () => {
    const result = await readFile({ path: 'long.txt', offset: 4990, limit: 5 });
    const lines = result.split('\n');
    assert.deepEqual(lines.slice(1), [
      '4990\tline 4990',
      '4991\tline 4991',
      '4992\tline 4992',
      '4993\tline 4993',
      '4994\tline 4994',
      '[lines 4990-4994 of 5000; call read_file with offset 4995 to read more]',
    ]);
  });

  test('shows the end of the file without a read-more note', async () => {
    const result = await readFile({ path: 'long.txt', offset: 4999 });
    assert.ok(result.endsWith('4999\tline 4999\n5000\tline 5000'));
  });

  test('caps a huge window at 8,000 characters and says where to continue', async () => {
    const result = await readFile({ path: 'long.txt', limit: 5000 });
    assert.ok(result.length <= MAX_READ_RESULT_CHARS, `length ${result.length}`);
    const match = /\[lines 1-(\d+) of 5000 \(output is capped at 8,000 characters\); call read_file with offset (\d+) to read more\]$/.exec(result);
    assert.ok(match, result.slice(-200));
    assert.equal(Number(match[2]), Number(match[1]) + 1);
  });

  test('cuts a 200 kB single-line file to at most 8,000 characters with a note', async () => {
    const result = await readFile({ path: 'bundle.min.js' });
    assert.ok(result.length <= MAX_READ_RESULT_CHARS, `length ${result.length}`);
    assert.match(result, /^bundle\.min\.js \(1 line, 200\.0 kB\)\n1\tvar a=x+ … \[line cut: [\d,]+ more characters\]/);
    assert.match(result, /1 line longer than 1,000 characters was cut/);
  });

  test('reads only a bounded prefix of a file over 10 MB', async () => {
    const line = `${'log entry '.repeat(9)}012345678\n`;
    await writeFile(path.join(workspace, 'huge.log'), line.repeat(120_000));
    const result = await readFile({ path: 'huge.log', limit: 2 });
    assert.match(result, /^huge\.log \(12\.0 MB; more than 100,000 lines, of which read_file can reach only the first 10\.0 MB\)\n/);
    assert.match(result, /\[lines 1-2 of more than 100000; call read_file with offset 3 to read more\]$/);
    await assert.rejects(readFile({ path: 'huge.log', offset: 110_000 }), /offset 110000 lies beyond the first 10\.0 MB of huge\.log/);
  });

  test('refuses an offset past the end', async () => {
    await assert.rejects(readFile({ path: 'hello.txt', offset: 10 }), /offset 10 is past the end of hello\.txt, which has 3 lines/);
  });

  test('describes a binary file instead of dumping it', async () => {
    assert.equal(await readFile({ path: 'package.tgz' }), 'package.tgz is a binary file (7 bytes); its contents cannot be shown as text.');
    assert.match(await readFile({ path: 'latin1.bin' }), /^latin1\.bin is a binary file \(400 bytes\)/);
    assert.equal(await readFile({ path: 'data.bin' }), 'data.bin is a binary file (2,101 bytes); its contents cannot be shown as text.');
  });

  test('says when a file is empty', async () => {
    assert.equal(await readFile({ path: 'empty.txt' }), 'empty.txt (0 lines, 0 bytes)\n[the file is empty]');
  });

  test('reads a unicode path', async () => {
    const result = await readFile({ path: '中文目录/笔记.md' });
    assert.match(result, /^中文目录\/笔记\.md \(2 lines, \d+ bytes\)\n1\t# 笔记 🌲\n2\t你好$/);
  });

  test('points to list_files for a folder or a missing file', async () => {
    await assert.rejects(readFile({ path: 'docs' }), /docs is a folder, not a file; use list_files/);
    await assert.rejects(readFile({ path: 'src/missing.ts' }), /file src\/missing\.ts does not exist in the workspace; use list_files/);
  });

  test('refuses paths outside the workspace', async () => {
    await assert.rejects(readFile({ path: '../../etc/passwd' }), /outside the workspace/);
    await assert.rejects(readFile({ path: '/etc/passwd' }), /outside the workspace/);
    await assert.rejects(readFile({ path: 'passwd-link' }), /outside the workspace/);
  });

  test('refuses secret files but reads env templates', async () => {
    await assert.rejects(readFile({ path: '.env' }), { message: 'reading .env is refused: it may hold secrets such as API keys, which must not be sent to the model' });
    await assert.rejects(readFile({ path: 'id_rsa' }), /reading id_rsa is refused/);
    await assert.rejects(readFile({ path: 'vault.secret' }, ['*.secret']), /reading vault\.secret is refused/);
    assert.equal(await readFile({ path: '.env.example' }), '.env.example (1 line, 9 bytes)\n1\tAPI_KEY=');
  });

  test('stops when the turn is aborted', async () => {
    const readTool = createReadFileTool({ workspaceRoot: workspace });
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      Promise.resolve(readTool.execute({ path: 'hello.txt' }, { toolCallId: 'call-1', messages: [], context: {}, abortSignal: controller.signal })),
      { name: 'AbortError' },
    );
  });
});
