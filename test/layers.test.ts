import assert from 'node:assert/strict';
import { dirname, relative } from 'node:path';
import { test } from 'node:test';
import type { ICruiseResult } from 'dependency-cruiser';
import { cruiseSources, LAYERS } from './helpers/source-imports.ts';

/** `src/ui/repl/repl.ts` → `ui/repl`; a file directly in src/ → `.`. */
const folderOf = (source: string) => relative('src', dirname(source)) || '.';

/** Folder pairs with imports both ways, as `a ⇄ b` with one example file each way. */
export function mutualFolders(result: ICruiseResult): string[] {
  const edges = new Map<string, string>();
  for (const module of result.modules) {
    if (!module.source.startsWith('src/')) continue;
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith('src/')) continue;
      const [from, to] = [folderOf(module.source), folderOf(dependency.resolved)];
      if (from !== to && !edges.has(`${from}\t${to}`)) edges.set(`${from}\t${to}`, `${module.source} → ${dependency.resolved}`);
    }
  }
  const pairs: string[] = [];
  for (const [key, example] of edges) {
    const [from, to] = key.split('\t');
    const back = edges.get(`${to}\t${from}`);
    if (back && from! < to!) pairs.push(`${from} ⇄ ${to} (${example}; ${back})`);
  }
  return pairs;
}

test('every folder of src/ has its place in a layer', async () => {
  const result = await cruiseSources();
  const placed = new Set(LAYERS.flat());
  const folders = new Set(result.modules.filter((module) => module.source.startsWith('src/')).map((module) => module.source.split('/')[1]!));
  assert.ok(folders.has('agent') && folders.has('shared') && folders.size > 10, `the sources were read (${[...folders].join(', ')})`);
  assert.deepEqual([...folders].filter((folder) => !placed.has(folder)), []);
});

test('no folder imports a folder of a higher layer', async () => {
  const result = await cruiseSources();
  assert.ok(result.summary.totalCruised > 300, `dependency-cruiser read the sources (${result.summary.totalCruised} modules)`);
  const upward = result.summary.violations.map((violation) => `${violation.from} → ${violation.to} (${violation.rule.name})`);
  assert.deepEqual(upward, []);
});

test('no two folders import each other', async () => {
  const result = await cruiseSources();
  assert.deepEqual(mutualFolders(result), []);
});
