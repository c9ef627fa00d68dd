import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createListFilesTool } from '../../../src/tools/files/list-files.ts';

let workspace: string;
let outside: string;

async function listFiles(input: { path?: string; pattern?: string }, root = workspace): Promise<string> {
  const listTool = createListFilesTool({ workspaceRoot: root });
  const result = await listTool.execute(input, { toolCallId: 'call-1', messages: [], context: {} });
  assert.equal(typeof result, 'string');
  return result as string;
}

async function touch(relativePath: string, content = ''): Promise<void> {
  const absolute = path.join(workspace, relativePath);
  await mkdir(path.dirname(absolute), { recursive: true });
  await writeFile(absolute, content);
}

before(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'sylvan-list-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'sylvan-list-outside-'));
  await touch('README.md');
  await touch('.env');
  await touch('.github/workflows/ci.yml');
  await touch('src/index.ts');
  await touch('src/tools/read-file.ts');
  await touch('src/tools/notes.md');
  await touch('.git/HEAD');
  await touch('node_modules/zod/index.ts');
  await touch('src/node_modules/nested/index.ts');
  await touch('中文目录/笔记.md');
  await touch('many/.keep');
  for (let index = 0; index < 250; index++) await touch(`many/file-${String(index).padStart(3, '0')}.txt`);
  await writeFile(path.join(outside, 'elsewhere.ts'), '');
  await symlink(outside, path.join(workspace, 'linked-outside'));
});

after(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('list_files', () => {
  test('lists a folder recursively and sorted, folders with "/", paths from the workspace root', async () => {
    assert.equal(
      await listFiles({ path: 'src' }),
      [
        '4 entries under src/',
        'src/index.ts',
        'src/tools/',
        'src/tools/notes.md',
        'src/tools/read-file.ts',
        '[.git and node_modules folders are not listed]',
      ].join('\n'),
    );
  });

  test('skips .git and node_modules but keeps dotfiles, secret names included', async () => {
    const result = await listFiles({});
    assert.doesNotMatch(result, /\.git\//);
    assert.equal(
      await listFiles({ pattern: '**/index.ts' }),
      '1 entry matching "**/index.ts" under the workspace root\nsrc/index.ts\n[.git and node_modules folders are not listed]',
    );
    assert.match(result, /^\.env$/m);
    assert.match(result, /^\.github\/workflows\/ci\.yml$/m);
    assert.equal((await listFiles({ path: '中文目录' })).split('\n')[1], '中文目录/笔记.md');
  });

  test('lists a symlink that points outside but never follows it', async () => {
    const result = await listFiles({});
    assert.match(result, /^linked-outside$/m);
    assert.doesNotMatch(result, /elsewhere/);
  });

  test('filters by a glob pattern, dotfolders included', async () => {
    assert.equal(await listFiles({ pattern: '**/*.yml' }), '1 entry matching "**/*.yml" under the workspace root\n.github/workflows/ci.yml\n[.git and node_modules folders are not listed]');
    const markdown = await listFiles({ pattern: '*.md' });
    assert.deepEqual(markdown.split('\n').slice(1, 4), ['README.md', 'src/tools/notes.md', '中文目录/笔记.md']);
    const nested = await listFiles({ path: 'src', pattern: 'tools/*.ts' });
    assert.equal(nested.split('\n')[1], 'src/tools/read-file.ts');
    assert.match(await listFiles({ path: 'src', pattern: '*.py' }), /^No entries matching "\*\.py" under src\//);
  });

  test('shows at most 200 entries and says how many more there are', async () => {
    const result = await listFiles({ path: 'many' });
    const lines = result.split('\n');
    assert.equal(lines[0], '251 entries under many/');
    assert.equal(lines[1], 'many/.keep');
    assert.equal(lines[200], 'many/file-198.txt');
    assert.equal(lines[201], '… 51 more entries not shown; narrow the path or pattern');
    assert.equal(lines.length, 202);
  });

  test('refuses a file, a missing folder and paths outside the workspace', async () => {
    await assert.rejects(listFiles({ path: 'README.md' }), /README\.md is a file, not a folder; use read_file/);
    await assert.rejects(listFiles({ path: 'nope' }), /folder nope does not exist/);
    await assert.rejects(listFiles({ path: '..' }), /outside the workspace/);
    await assert.rejects(listFiles({ path: '/etc' }), /outside the workspace/);
    await assert.rejects(listFiles({ path: 'linked-outside' }), /outside the workspace/);
  });

  test('stops when the turn is aborted', async () => {
    const listTool = createListFilesTool({ workspaceRoot: workspace });
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      Promise.resolve(listTool.execute({}, { toolCallId: 'call-1', messages: [], context: {}, abortSignal: controller.signal })),
      { name: 'AbortError' },
    );
  });

  test('reports an empty folder', async () => {
    await mkdir(path.join(workspace, 'empty'));
    assert.equal(await listFiles({ path: 'empty' }), 'empty/ is empty');
  });
});

describe('list_files and .gitignore', () => {
  let project: string;
  before(async () => {
    project = await mkdtemp(path.join(os.tmpdir(), 'sylvan-list-ignored-'));
    const put = async (relativePath: string, content = '') => {
      await mkdir(path.dirname(path.join(project, relativePath)), { recursive: true });
      await writeFile(path.join(project, relativePath), content);
    };
    await put('.gitignore', 'dist/\n*.log\n');
    await put('src/app.ts');
    await put('src/.gitignore', 'generated/\n!keep.log\n');
    await put('src/generated/out.ts');
    await put('src/keep.log');
    await put('debug.log');
    await put('dist/chunk-1.js');
    await put('dist/chunk-2.js');
  });
  after(() => rm(project, { recursive: true, force: true }));

  test('what .gitignore names (a build folder, logs, a nested folder) is left out and counted; a nested !negation brings a file back', async () => {
    const listed = await listFiles({}, project);
    for (const shown of ['.gitignore', 'src/', 'src/app.ts', 'src/keep.log']) assert.ok(listed.split('\n').includes(shown), `${shown} is listed:\n${listed}`);
    for (const hidden of ['dist/', 'dist/chunk-1.js', 'debug.log', 'src/generated/', 'src/generated/out.ts']) assert.ok(!listed.split('\n').includes(hidden), `${hidden} is not listed:\n${listed}`);
    assert.match(listed, /\[3 entries \.gitignore names not listed; list such a folder by its path to see it\]/);
  });

  test('listing a subfolder, the .gitignore rules of the folders above it apply in it', async () => {
    const nested = await mkdtemp(path.join(os.tmpdir(), 'sylvan-list-above-'));
    try {
      await writeFile(path.join(nested, '.gitignore'), '*.log\n');
      await mkdir(path.join(nested, 'src', 'deep'), { recursive: true });
      await writeFile(path.join(nested, 'src', 'app.ts'), '');
      await writeFile(path.join(nested, 'src', 'trace.log'), '');
      await writeFile(path.join(nested, 'src', 'deep', 'more.log'), '');
      const listed = await listFiles({ path: 'src' }, nested);
      assert.ok(listed.split('\n').includes('src/app.ts'), listed);
      assert.doesNotMatch(listed, /trace\.log|more\.log/);
      assert.match(listed, /\[2 entries \.gitignore names not listed/);
    } finally {
      await rm(nested, { recursive: true, force: true });
    }
  });

  test('an ignored folder asked for by its path is listed whole', async () => {
    const listed = await listFiles({ path: 'dist' }, project);
    assert.ok(listed.split('\n').includes('dist/chunk-1.js') && listed.split('\n').includes('dist/chunk-2.js'), listed);
    assert.doesNotMatch(listed, /\.gitignore names not listed/);
  });
});
