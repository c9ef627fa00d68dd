import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import { isCurrent, recordInputs } from '../scripts/build-inputs.mjs';

// `npm test` skips building a dist/ whose inputs are unchanged (`scripts/build.mjs --if-changed`):
// a build that is not current must never be taken for one, or the suite would test stale code.
describe('the record of what a build was made from', () => {
  const root = mkdtempSync(join(tmpdir(), 'sylvan-build-inputs-'));
  const dist = join(root, 'dist');
  after(() => rmSync(root, { recursive: true, force: true }));
  beforeEach(() => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(join(root, 'src'), { recursive: true });
    mkdirSync(dist);
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
    writeFileSync(join(dist, 'cli.js'), '// built\n');
    writeFileSync(join(dist, 'chunk-1.js'), '// built\n');
    // esbuild names a plugin's virtual module `namespace:path`: no file, and no reason to build again.
    recordInputs(root, dist, ['src/a.ts', 'src/b.ts', 'zod-locales:/virtual/index.js'], ['cli.js', 'chunk-1.js']);
  });

  test('is current while nothing it names has changed', () => {
    assert.equal(isCurrent(root, dist), true);
  });

  test('an input edited, even to the same size, means building again', () => {
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 3;\n');
    utimesSync(join(root, 'src', 'a.ts'), new Date(), new Date(Date.now() + 5_000));
    assert.equal(isCurrent(root, dist), false);
  });

  test('a build made by another Node means building again: the chunks differ', () => {
    const record = join(dist, '.build-inputs.json');
    const made = JSON.parse(readFileSync(record, 'utf8')) as { node: string };
    assert.equal(made.node, process.version);
    writeFileSync(record, JSON.stringify({ ...made, node: 'v20.0.0-elsewhere' }));
    assert.equal(isCurrent(root, dist), false);
  });

  test('an output changed by hand means building again', () => {
    writeFileSync(join(dist, 'cli.js'), '// edited by hand, a few bytes longer\n');
    assert.equal(isCurrent(root, dist), false);
  });

  test('an input removed, or an output gone, means building again', () => {
    rmSync(join(root, 'src', 'b.ts'));
    assert.equal(isCurrent(root, dist), false);
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
    recordInputs(root, dist, ['src/a.ts', 'src/b.ts'], ['cli.js', 'chunk-1.js']);
    rmSync(join(dist, 'chunk-1.js'));
    assert.equal(isCurrent(root, dist), false);
  });

  test('no record, a damaged one, or one without outputs is never current', () => {
    writeFileSync(join(dist, '.build-inputs.json'), '{"files": {');
    assert.equal(isCurrent(root, dist), false);
    writeFileSync(join(dist, '.build-inputs.json'), JSON.stringify({ files: {}, outputs: {} }));
    assert.equal(isCurrent(root, dist), false);
    rmSync(join(dist, '.build-inputs.json'));
    assert.equal(isCurrent(root, dist), false);
  });
});
