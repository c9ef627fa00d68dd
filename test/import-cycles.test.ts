import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * No import cycles in src/, type-only imports included: a shared type or error class lives in the
 * lower module both sides import (src/shared/config-error.ts, src/agent/loop/turn-options.ts, src/ui/state/repl-state.ts).
 * madge reads the imports as TypeScript does (tsconfig.json); a cycle it finds fails here.
 */
test('src/ has no import cycle', { timeout: 120_000 }, async () => {
  const graph = await madge(`${projectRoot}src`, {
    fileExtensions: ['ts'],
    tsConfig: `${projectRoot}tsconfig.json`,
    detectiveOptions: { ts: { skipTypeImports: false }, es6: { skipTypeImports: false } },
  });
  const files = Object.keys(graph.obj());
  assert.ok(files.length > 100 && files.includes('agent/loop/agent-loop.ts'), `madge read the sources (${files.length} files)`);
  assert.ok(graph.depends('agent/loop/events.ts').includes('agent/loop/agent-loop.ts'), 'madge follows the imports');
  assert.deepEqual(graph.circular().map((cycle) => cycle.join(' → ')), []);
});
