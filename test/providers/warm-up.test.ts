import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const warmUp = fileURLToPath(new URL('../../src/providers/warm-up.ts', import.meta.url));

// In a fresh process: this test runner has long loaded undici itself.
test('warming up loads Node’s HTTP client before the first request needs it', { timeout: 30_000 }, () => {
  const script = `
    const undiciLoaded = () => process.moduleLoadList.some((name) => name.includes('deps/undici'));
    const before = undiciLoaded();
    const { warmUpFirstRequest } = await import(${JSON.stringify(warmUp)});
    warmUpFirstRequest({});
    process.stdout.write(JSON.stringify({ before, after: undiciLoaded() }));
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { before: false, after: true });
});
