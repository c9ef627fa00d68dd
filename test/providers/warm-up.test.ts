import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { childModule } from '../helpers/child-script.ts';

/** The module, compiled under `npm test` (plain node), else the source through tsx. */
const warmUp = childModule(import.meta.resolve('../../src/providers/warm-up.js'), new URL('../../src/providers/warm-up.ts', import.meta.url));

// In a fresh process: this test runner has long loaded undici itself.
/** Whether undici was loaded before and after warming up with `options`, in a fresh process. */
function undiciAroundWarmUp(options: string): { before: boolean; after: boolean } {
  const script = `
    const undiciLoaded = () => process.moduleLoadList.some((name) => name.includes('deps/undici'));
    const before = undiciLoaded();
    const { warmUpFirstRequest } = await import(${JSON.stringify(warmUp.href)});
    warmUpFirstRequest({}, ${options});
    process.stdout.write(JSON.stringify({ before, after: undiciLoaded() }));
  `;
  const result = spawnSync(process.execPath, [...warmUp.loader, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as { before: boolean; after: boolean };
}

test('warming up loads Node’s HTTP client before the first request needs it', { timeout: 30_000 }, () => {
  assert.deepEqual(undiciAroundWarmUp('{}'), { before: false, after: true });
});

test('warming up for the mock model, which sends no request, leaves the HTTP client unloaded (~25 ms a start)', { timeout: 30_000 }, () => {
  assert.deepEqual(undiciAroundWarmUp('{ http: false }'), { before: false, after: false });
});
