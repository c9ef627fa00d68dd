import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { IN_PROCESS_SECONDS, RUN_ALONE, SAME_SHARD, SPAWNING_FILES, STARTS_THE_CLI } from './file-budgets.mjs';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const testFiles = readdirSync(join(projectRoot, 'test'), { recursive: true })
  .map((entry) => String(entry))
  .filter((entry) => entry.endsWith('.test.ts') && !entry.split(sep).includes('node_modules') && !entry.split(sep).includes('fixtures'))
  .map((entry) => relative(projectRoot, join(projectRoot, 'test', entry)).split(sep).join('/'));

// test/README.md: the runner places each file by test/file-budgets.mjs, and a failure is read by its file name.
describe('the test files, as test/run-suite.mjs places them', () => {
  test('every file test/file-budgets.mjs names exists: a renamed file would lose its budget and its place in the run', () => {
    const named = [...Object.keys(SPAWNING_FILES), ...Object.keys(IN_PROCESS_SECONDS), ...Object.keys(RUN_ALONE), ...SAME_SHARD.flat()];
    assert.deepEqual(named.filter((file) => !existsSync(join(projectRoot, file))), []);
  });

  test('no two test files share a name, in any folders', () => {
    const byName = new Map<string, string[]>();
    for (const file of testFiles) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
    assert.deepEqual([...byName.values()].filter((files) => files.length > 1), []);
  });

  test('every file that starts the built CLI or a terminal has a budget, so it runs in a process of its own', () => {
    const unlisted = testFiles.filter((file) => SPAWNING_FILES[file] === undefined && STARTS_THE_CLI.test(readFileSync(join(projectRoot, file), 'utf8')));
    assert.deepEqual(unlisted, []);
  });
});
