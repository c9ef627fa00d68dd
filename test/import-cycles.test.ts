import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cruiseSources } from './helpers/source-imports.ts';

/** src/'s import graph, each file (`agent/loop/agent-loop.ts`) with the src/ files it imports. */
async function importGraph(): Promise<Map<string, string[]>> {
  const inSrc = (path: string) => path.startsWith('src/');
  const graph = new Map<string, string[]>();
  for (const module of (await cruiseSources()).modules.filter((module) => inSrc(module.source))) {
    graph.set(module.source.slice(4), module.dependencies.map((dependency) => dependency.resolved).filter(inSrc).map((path) => path.slice(4)));
  }
  return graph;
}

/** One cycle (`a → b → a`) through each group of files that import each other, directly or around. */
export function importCycles(graph: Map<string, string[]>): string[] {
  // Tarjan's strongly connected components: a component of two or more files, or a file that
  // imports itself, holds a cycle.
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (onStack.has(next)) lowest.set(file, Math.min(lowest.get(file)!, index.get(next)!));
    }
    if (lowest.get(file) !== index.get(file)) return;
    const component = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.add(member);
    } while (member !== file);
    if (component.size > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(cycleThrough(file, component, graph).join(' → '));
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** The shortest way from `start` back to itself inside its component. */
function cycleThrough(start: string, component: Set<string>, graph: Map<string, string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const steps: string[] = [];
        for (let step = file; step !== start; step = cameFrom.get(step)!) steps.unshift(step);
        return [start, ...steps, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/**
 * No import cycles in src/, type-only imports included: a shared type or error class lives in the
 * lower module both sides import (src/shared/config-error.ts, src/agent/loop/turn-options.ts, src/ui/state/repl-state.ts).
 * The imports are read as TypeScript reads them (dependency-cruiser, the same reading as the layer check).
 */
test('src/ has no import cycle', { timeout: 120_000 }, async () => {
  const graph = await importGraph();
  const files = [...graph.keys()];
  assert.ok(files.length > 100 && files.includes('agent/loop/agent-loop.ts'), `dependency-cruiser read the sources (${files.length} files)`);
  assert.ok(graph.get('agent/loop/agent-loop.ts')?.includes('agent/loop/events.ts'), 'the graph follows the imports');
  assert.deepEqual(importCycles(graph), []);
});

test('a cycle is found, however long, and named by its files', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts', 'd.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', []],
    ['e.ts', ['e.ts']],
    ['f.ts', ['d.ts']],
  ]);
  assert.deepEqual(importCycles(graph).sort(), ['a.ts → b.ts → c.ts → a.ts', 'e.ts → e.ts']);
});
