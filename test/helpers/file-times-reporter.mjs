// A node:test reporter that prints, after the run, the ten test files that took longest: each
// file's wall time from the runner starting it (`test:dequeue`) to its end (`test:complete`), with
// its budget from test/file-budgets.mjs; then every file over its budget, by name.
import { SPAWNING_FILES } from '../file-budgets.mjs';

const SHOWN = 10;
/** A test file's path from the project (its source's: the suite runs it compiled, from .test-build/). */
const shortName = (file) => file.replace(/^.*?\/(?=test\/)/, '').replace(/\.test\.js$/, '.test.ts');

export default async function* fileTimes(source) {
  const started = new Map();
  const seconds = new Map();
  for await (const event of source) {
    const { file, name, nesting } = event.data ?? {};
    // The file's own entry: named by its path (absolute on Node 20, as given on Node 22).
    if (typeof file !== 'string' || typeof name !== 'string' || nesting !== 0 || !/\.test\.[jt]s$/.test(name) || !file.endsWith(name)) continue;
    if (event.type === 'test:dequeue') started.set(file, performance.now());
    else if (event.type === 'test:complete' && started.has(file)) seconds.set(file, (performance.now() - started.get(file)) / 1000);
  }
  const timed = [...seconds].map(([file, time]) => ({ file: shortName(file), time, budget: SPAWNING_FILES[shortName(file)]?.seconds }));
  const slowest = [...timed]
    .sort((a, b) => b.time - a.time)
    .slice(0, SHOWN)
    .map(({ file, time, budget }) => `${file} ${time.toFixed(1)} s${budget === undefined ? '' : ` (budget ${budget} s)`}`);
  if (slowest.length > 0) yield `slowest test files: ${slowest.join(', ')}\n`;
  const over = timed.filter(({ time, budget }) => budget !== undefined && time > budget);
  if (over.length > 0) {
    const named = over.map(({ file, time, budget }) => `${file} ${time.toFixed(1)} s > ${budget} s (${SPAWNING_FILES[file].waitsFor})`);
    yield `over budget (a loaded machine, or a file that got slower): ${named.join('; ')}\n`;
  }
}
