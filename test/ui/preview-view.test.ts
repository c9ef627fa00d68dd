import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Chalk } from 'chalk';
import { unifiedDiff } from '../../src/tools/files/unified-diff.ts';
import { formatPreview } from '../../src/ui/approval/preview-view.ts';

const before = ['import x from "x";', '', 'const greeting = "hello";', 'console.log(greeting);', 'export {};', ''].join('\n');
const after = ['import x from "x";', '', 'const greeting = "bonjour";', 'console.log(greeting);', 'console.log("done");', 'export {};', ''].join('\n');
const strip = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('formatPreview: the approval diff', () => {
  test('on a colour terminal: removed lines red, added green, the changed word highlighted, old and new line numbers', async () => {
    const diff = await unifiedDiff('src/app.ts', before, after, (line) => line);
    const shown = await formatPreview({ summary: 'edit_file src/app.ts', preview: diff, previewFormat: 'diff' }, new Chalk({ level: 1 }));
    const lines = shown.split('\n');
    const removed = lines.find((entry) => strip(entry).includes('- const greeting'))!;
    const added = lines.find((entry) => strip(entry).includes('+ const greeting'))!;
    assert.ok(removed.includes('\x1b[31m'), `red: ${JSON.stringify(removed)}`);
    assert.ok(added.includes('\x1b[32m'), `green: ${JSON.stringify(added)}`);
    assert.match(removed, /\x1b\[7m(\x1b\[\d+m)*hello\x1b/, `the old word is highlighted (inverse): ${JSON.stringify(removed)}`);
    assert.match(added, /\x1b\[7m(\x1b\[\d+m)*bonjour\x1b/, `the new word is highlighted: ${JSON.stringify(added)}`);
    assert.equal(strip(removed), '  │ 3   - const greeting = "hello";');
    assert.equal(strip(added), '  │   3 + const greeting = "bonjour";');
    assert.ok(lines.some((entry) => strip(entry) === '  │ 4 4   console.log(greeting);'), strip(shown));
    assert.ok(lines.some((entry) => strip(entry) === '  │   5 + console.log("done");'), strip(shown));
    const wholeLine = lines.find((entry) => strip(entry).includes('console.log("done")'))!;
    assert.ok(!wholeLine.includes('\x1b[7m'), 'a line with no old counterpart is not word-highlighted');
  });

  test('with colour off (NO_COLOR): no escape at all, the +/- markers and numbers carry it', async () => {
    const diff = await unifiedDiff('src/app.ts', before, after, (line) => line);
    const shown = await formatPreview({ summary: 'edit_file src/app.ts', preview: diff, previewFormat: 'diff' }, new Chalk({ level: 0 }));
    assert.ok(!shown.includes('\x1b'), JSON.stringify(shown));
    assert.match(shown, /^ {2}│ 3 {3}- const greeting = "hello";$/m);
    assert.match(shown, /^ {2}│ {3}3 \+ const greeting = "bonjour";$/m);
  });

  test('a removed line that read "-- x" is not taken for a header', async () => {
    const diff = await unifiedDiff('q.sql', '-- old\nselect 1;\n', '-- new\nselect 1;\n', (line) => line);
    const shown = strip(await formatPreview({ summary: '', preview: diff, previewFormat: 'diff' }, new Chalk({ level: 0 })));
    assert.match(shown, /│ 1 {3}- -- old/);
  });

  test('other previews are dimmed as they were', async () => {
    const shown = await formatPreview({ summary: 'run_command ls', preview: '$ ls\nin /w' }, new Chalk({ level: 1 }));
    assert.equal(shown, '\x1b[2m  │ $ ls\x1b[22m\n\x1b[2m  │ in /w\x1b[22m');
  });
});
