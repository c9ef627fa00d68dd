// A node:test reporter that prints, after the run, the test files that took longest: each file's
// wall time from the runner starting it (`test:dequeue`) to its end (`test:complete`).
export default async function* fileTimes(source) {
  const started = new Map();
  const seconds = new Map();
  for await (const event of source) {
    const { file, name, nesting } = event.data ?? {};
    // The file's own entry: named by its path (absolute on Node 20, as given on Node 22).
    if (typeof file !== 'string' || typeof name !== 'string' || nesting !== 0 || !name.endsWith('.test.ts') || !file.endsWith(name)) continue;
    if (event.type === 'test:dequeue') started.set(file, performance.now());
    else if (event.type === 'test:complete' && started.has(file)) seconds.set(file, (performance.now() - started.get(file)) / 1000);
  }
  const slowest = [...seconds]
    .sort(([, a], [, b]) => b - a)
    .slice(0, 3)
    .map(([file, time]) => `${file.replace(/^.*?\/(?=test\/)/, '')} ${time.toFixed(1)} s`);
  if (slowest.length > 0) yield `slowest test files: ${slowest.join(', ')}\n`;
}
