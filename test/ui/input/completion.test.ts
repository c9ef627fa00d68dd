import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { attachFiles, MAX_ATTACHED_CHARS } from '../../../src/ui/attachments/attach-files.ts';
import { createCompleter } from '../../../src/ui/input/completion.ts';

let root: string;
let outside: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'sylvan-complete-'));
  outside = mkdtempSync(join(tmpdir(), 'sylvan-outside-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'main.ts'), 'export const answer = 42;\n');
  writeFileSync(join(root, 'src', 'mail.ts'), 'mail\n');
  writeFileSync(join(root, 'notes.md'), '# 笔记\nhello\n');
  writeFileSync(join(root, '.env'), 'DASHSCOPE_API_KEY=sk-secret\n');
  writeFileSync(join(root, 'server.key'), 'PRIVATE\n');
  writeFileSync(join(root, 'big.txt'), 'x'.repeat(MAX_ATTACHED_CHARS * 2));
  writeFileSync(join(root, 'blob.bin'), Buffer.from([1, 0, 2, 0]));
  writeFileSync(join(outside, 'secret.txt'), 'outside\n');
  symlinkSync(outside, join(root, 'escape'));
});
after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const completer = () => createCompleter({ commands: [{ name: '/help', summary: 'this list' }, { name: '/model', summary: 'switch' }], workspaceRoot: root });

describe('completion', { timeout: 10_000 }, () => {
  test('/ lists matching commands; Tab completes one', async () => {
    assert.deepEqual(completer().suggest('/m', 2), [{ label: '/model', description: 'switch' }]);
    assert.deepEqual(completer().suggest('hello /m', 8), []);
    assert.equal((await completer().complete('/h', 2))?.text, '/help ');
  });

  test('more command sources (custom commands) are listed after the built-ins, asked again at each keystroke; a built-in name is never shadowed', async () => {
    let custom = [{ name: '/review', summary: 'review a file (project)' }];
    const more = createCompleter({
      commands: [{ name: '/help', summary: 'this list' }, { name: '/redo', summary: 'take back' }],
      moreCommands: [() => custom, () => [{ name: '/help', summary: 'a file called help.md' }]],
      workspaceRoot: root,
    });
    assert.deepEqual(more.suggest('/', 1), [
      { label: '/help', description: 'this list' },
      { label: '/redo', description: 'take back' },
      { label: '/review', description: 'review a file (project)' },
    ]);
    assert.equal((await more.complete('/rev', 4))?.text, '/review ');
    custom = [{ name: '/git:commit', summary: 'commit (user)' }];
    assert.deepEqual(more.suggest('/g', 2), [{ label: '/git:commit', description: 'commit (user)' }]);
  });

  test('@ completes workspace paths: the common part, then the file', async () => {
    const folder = await completer().complete('look at @sr', 11);
    assert.deepEqual(folder && { from: folder.from, text: folder.text }, { from: 9, text: 'src/' });
    const both = await completer().complete('@src/ma', 7);
    assert.equal(both?.text, 'src/mai');
    assert.deepEqual(both?.suggestions.map((suggestion) => suggestion.label), ['src/mail.ts', 'src/main.ts']);
  });

  test('secret files are never offered, and nothing outside the workspace is listed', async () => {
    assert.equal(await completer().complete('@.en', 4), undefined);
    assert.equal(await completer().complete('@server', 7), undefined);
    assert.equal(await completer().complete('@escape/', 8), undefined);
    assert.equal(await completer().complete('@../', 4), undefined);
  });
});

describe('attachFiles', { timeout: 10_000 }, () => {
  test('an @path attaches the file after the message', async () => {
    const attached = await attachFiles('summarise @notes.md please', { workspaceRoot: root });
    assert.equal(attached.message, 'summarise @notes.md please\n\n<file path="notes.md">\n# 笔记\nhello\n\n</file>');
    assert.deepEqual(attached.files, ['notes.md']);
    assert.deepEqual(attached.problems, []);
  });

  test('secret files, paths outside the workspace, folders, binaries and missing files are not attached, and say why', async () => {
    const attached = await attachFiles('@.env @escape/secret.txt @src @blob.bin @nope.txt', { workspaceRoot: root });
    assert.equal(attached.message, '@.env @escape/secret.txt @src @blob.bin @nope.txt');
    assert.equal(attached.problems.length, 5);
    assert.match(attached.problems[0]!, /^@\.env not attached: .*secret/);
    assert.match(attached.problems[1]!, /outside the workspace/);
    assert.match(attached.problems[2]!, /not a file/);
    assert.match(attached.problems[3]!, /binary/);
    assert.match(attached.problems[4]!, /no such file/);
    assert.ok(!attached.message.includes('sk-secret'));
  });

  test('a big file is cut at the limit, and says so', async () => {
    const attached = await attachFiles('@big.txt', { workspaceRoot: root });
    assert.ok(attached.message.length < MAX_ATTACHED_CHARS + 200);
    assert.match(attached.message, /\[… cut at 16,000 characters of 32,000 bytes\]/);
  });

  test('an e-mail address or a trailing full stop is not a path', async () => {
    const attached = await attachFiles('write to me@example.com about @notes.md.', { workspaceRoot: root });
    assert.deepEqual(attached.files, ['notes.md']);
  });
});
