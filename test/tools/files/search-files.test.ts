import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { createSearchFilesTool, type SearchFilesInput } from '../../../src/tools/files/search-files.ts';
import type { SearchJob, SearchMessage } from '../../../src/tools/files/search-worker.ts';

const root = mkdtempSync(join(tmpdir(), 'sylvan-search-'));
after(() => rmSync(root, { recursive: true, force: true }));
const write = (path: string, content: string | Buffer) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
};
write('.gitignore', 'dist/\n*.log\n');
write('src/main.ts', 'export function main() {\n  return "needle";\n}\n');
write('src/util.ts', '// needle helper\r\nexport const x = 1;\r\n');
write('docs/guide.md', 'Find the NEEDLE here.\n');
write('dist/bundle.js', 'needle in the build output\n');
write('debug.log', 'needle in a log\n');
write('logs/.gitignore', '!keep.log\n');
write('logs/keep.log', 'needle kept by negation\n');
write('node_modules/pkg/index.js', 'needle in a dependency\n');
write('.git/config', 'needle in git\n');
write('.env', 'API_KEY=needle-sk-9911\n');
write('image.bin', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]));
write('slow.txt', `${'a'.repeat(40)}!\n`);

const search = (input: SearchFilesInput, timeLimitMs?: number): Promise<string> => {
  const tool = createSearchFilesTool({ workspaceRoot: root, timeLimitMs });
  return (tool.execute as (input: unknown, options: unknown) => Promise<string>)(input, { toolCallId: 'call-1', messages: [] });
};

describe('search_files', { timeout: 30_000 }, () => {
  test('finds a pattern across files as file:line: text, skipping what .gitignore lists, .git, node_modules and binaries', async () => {
    const result = await search({ pattern: 'needle' });
    assert.deepEqual(result.split('\n'), [
      '3 matches for /needle/ in the workspace:',
      'logs/keep.log:1: needle kept by negation',
      'src/main.ts:2:   return "needle";',
      'src/util.ts:1: // needle helper',
      '[1 secret file (such as .env) not searched]',
    ]);
    for (const hidden of ['dist/', 'debug.log', 'node_modules', '.git/', 'image.bin']) assert.ok(!result.includes(hidden), `${hidden} was searched:\n${result}`);
  });

  test('.env is never read: its contents never appear, and the result says a secret file was skipped', async () => {
    const result = await search({ pattern: 'API_KEY' });
    assert.ok(!result.includes('sk-9911'), result);
    assert.match(result, /^No matches/);
    assert.match(result, /1 secret file \(such as \.env\) not searched/);
    await assert.rejects(search({ pattern: 'x', path: '.env' }), /refused/);
  });

  test('ignore_case, path and glob narrow the search', async () => {
    assert.match(await search({ pattern: 'NEEDLE' }), /^1 match for \/NEEDLE\/ in the workspace:\ndocs\/guide\.md:1: Find the NEEDLE here\.$/m);
    const folder = await search({ pattern: 'needle', ignore_case: true, path: 'docs' });
    assert.match(folder, /^1 match for \/needle\/i in docs:\ndocs\/guide\.md:1:/);
    const globbed = await search({ pattern: 'needle', glob: '*.ts' });
    assert.match(globbed, /^2 matches/);
    assert.ok(!globbed.includes('keep.log'));
  });

  test('a pathological pattern is stopped within its time bound, with a note saying why', async () => {
    const started = Date.now();
    const result = await search({ pattern: '(a+)+$', path: 'slow.txt' }, 500);
    const elapsed = Date.now() - started;
    // The bound is on matching; starting the worker thread on a busy machine comes on top.
    assert.ok(elapsed < 8_000, `took ${elapsed} ms`);
    assert.match(result, /stopped after 0\.5 s while matching slow\.txt/);
    assert.match(result, /backtracks catastrophically/);
  });

  test('an invalid pattern is an error that says how to fix it', async () => {
    await assert.rejects(search({ pattern: 'main(' }), /not a valid regular expression.*escape/);
  });

  test('many matches are bounded in count, with a note saying there are more', async () => {
    write('many/lines.txt', Array.from({ length: 500 }, (_, index) => `match ${index}`).join('\n'));
    const result = await search({ pattern: '^match', path: 'many' });
    assert.match(result, /^100 matches\+ for/);
    assert.equal(result.split('\n').filter((line) => line.startsWith('many/lines.txt:')).length, 100);
    assert.match(result, /there are more\. Narrow the pattern, path or glob/);
    assert.ok(result.length <= 8_000);
  });

  test('from the TypeScript source (npm run dev), the worker starts through its tsx starter and searches', async () => {
    // The suite's compiled search_files starts the compiled worker (test/compile-tests.mjs OWN_URL).
    const starter = new URL('../../../src/tools/files/search-worker-from-source.mjs', import.meta.url);
    const job: SearchJob = { files: [{ absolutePath: join(root, 'src/main.ts'), displayPath: 'src/main.ts' }], pattern: 'needle', flags: '', maxMatches: 10, maxFileBytes: 10_000, maxLineChars: 200 };
    const worker = new Worker(starter, { workerData: job });
    const messages: SearchMessage[] = [];
    const done = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: SearchMessage) => {
        messages.push(message);
        if (message.type === 'done') resolve();
      });
      worker.on('error', reject);
    });
    try {
      await done;
    } finally {
      await worker.terminate();
    }
    assert.deepEqual(messages.filter((message) => message.type === 'match'), [{ type: 'match', file: 'src/main.ts', line: 2, text: '  return "needle";' }]);
  });
});
