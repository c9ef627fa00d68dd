// A node:test reporter that prints, after the run, the ten test files that took longest, with
// their budgets from test/file-budgets.mjs; then every file over its budget, by name; then the
// shards' times. A file with a process of its own, and a shard, is timed from the runner starting
// it (`test:dequeue`) to its end (`test:complete`); a file in a shard (test/helpers/shard.mjs) by
// its suite's duration, from its first hook to its last (its import is not counted: the shard's
// first file loads what the others then share).
import { SPAWNING_FILES } from '../file-budgets.mjs';

const SHOWN = 10;
/** A shard's entry file, written by test/run-suite.mjs. */
const SHARD = /shard-(\d+)-of-(\d+)\.test\.mjs$/;
/** A file run through its place in the queue (test/run-suite.mjs): queue-007--test--cli--memory.test.mjs. */
const QUEUED = /queue-\d+--(.+)\.test\.mjs$/;
/** Where a shard's suite for each file is declared (the `file` of its events). */
const SHARD_RUNNER = '/test/helpers/shard.mjs';

/** A test file's path from the project (its source's: the suite runs it compiled, from .test-build/). */
const shortName = (file) => {
  const queued = QUEUED.exec(file);
  if (queued && !SHARD.test(file)) return `${queued[1].replaceAll('--', '/')}.test.ts`;
  return file.replace(/^.*?\/(?=test\/)/, '').replace(/\.test\.js$/, '.test.ts');
};

export default async function* fileTimes(source) {
  const started = new Map();
  const seconds = new Map();
  const shards = new Map();
  const inShard = new Set();
  for await (const event of source) {
    const { file, name, nesting } = event.data ?? {};
    if (typeof file !== 'string' || typeof name !== 'string' || nesting !== 0) continue;
    // A process's own entry: named by its file's path (absolute on Node 20, as given on Node 22).
    if (file.endsWith(name) && (/\.test\.[jt]s$/.test(name) || QUEUED.test(name))) {
      const times = SHARD.test(name) ? shards : seconds;
      if (event.type === 'test:dequeue') started.set(file, performance.now());
      else if (event.type === 'test:complete' && started.has(file)) times.set(file, (performance.now() - started.get(file)) / 1000);
    } else if (file.endsWith(SHARD_RUNNER) && /^test\/.+\.test\.ts$/.test(name) && (event.type === 'test:pass' || event.type === 'test:fail')) {
      // A file's suite in a shard (its events come when the shard ends, so its own duration).
      seconds.set(name, (event.data.details?.duration_ms ?? 0) / 1000);
      inShard.add(name);
    }
  }
  const timed = [...seconds].map(([file, time]) => ({ file: shortName(file), time, budget: SPAWNING_FILES[shortName(file)]?.seconds }));
  const slowest = [...timed]
    .sort((a, b) => b.time - a.time)
    .slice(0, SHOWN)
    .map(({ file, time, budget }) => `${file} ${time.toFixed(1)} s${budget === undefined ? '' : ` (budget ${budget} s)`}${inShard.has(file) ? ' (in a shard)' : ''}`);
  if (slowest.length > 0) yield `slowest test files: ${slowest.join(', ')}\n`;
  const over = timed.filter(({ time, budget }) => budget !== undefined && time > budget);
  if (over.length > 0) {
    const named = over.map(({ file, time, budget }) => `${file} ${time.toFixed(1)} s > ${budget} s (${SPAWNING_FILES[file].waitsFor})`);
    yield `over budget (a loaded machine, or a file that got slower): ${named.join('; ')}\n`;
  }
  if (shards.size > 0) {
    const named = [...shards].map(([file, time]) => `${SHARD.exec(file).slice(1).join(' of ')} ${time.toFixed(1)} s`);
    yield `shards (${inShard.size} in-process files, each shard's files one after another in one process): ${named.sort().join(', ')}\n`;
  }
}
