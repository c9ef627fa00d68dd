import assert from 'node:assert/strict';
import dns from 'node:dns';
import { lookup } from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { describe, mock, test } from 'node:test';
import { changesSince, listeners, snapshot } from './process-state.mjs';

// The check a shard runs after each file (test/helpers/shard.mjs): what a file changed in the
// process is found, named, and put back, so it cannot reach the files after it.

/** The changes since `before`, each put back; returns their descriptions. */
function foundAndRestored(before: ReturnType<typeof snapshot>, loaded?: ReturnType<typeof listeners>): string[] {
  const changes = changesSince(before, loaded);
  for (const change of changes) change.restore();
  return changes.map((change) => change.text);
}

describe('what a file leaves changed in its process', () => {
  test('nothing changed: nothing found', () => {
    assert.deepEqual(foundAndRestored(snapshot(), listeners()), []);
  });

  test('an environment variable set, changed or deleted is named and put back', () => {
    process.env.SYLVAN_STATE_CHECK_OLD = 'old';
    process.env.SYLVAN_STATE_CHECK_GONE = 'here';
    try {
      const before = snapshot();
      process.env.SYLVAN_STATE_CHECK_NEW = 'new';
      process.env.SYLVAN_STATE_CHECK_OLD = 'changed';
      delete process.env.SYLVAN_STATE_CHECK_GONE;
      assert.deepEqual(foundAndRestored(before).sort(), [
        'process.env.SYLVAN_STATE_CHECK_GONE was deleted',
        'process.env.SYLVAN_STATE_CHECK_NEW was set (to "new")',
        'process.env.SYLVAN_STATE_CHECK_OLD was changed to "changed"',
      ]);
      assert.equal(process.env.SYLVAN_STATE_CHECK_NEW, undefined);
      assert.equal(process.env.SYLVAN_STATE_CHECK_OLD, 'old');
      assert.equal(process.env.SYLVAN_STATE_CHECK_GONE, 'here');
    } finally {
      delete process.env.SYLVAN_STATE_CHECK_OLD;
      delete process.env.SYLVAN_STATE_CHECK_GONE;
    }
  });

  test('the working directory', () => {
    const cwd = process.cwd();
    const before = snapshot();
    process.chdir(tmpdir());
    const moved = process.cwd();
    assert.deepEqual(foundAndRestored(before), [`the working directory is ${moved}, was ${cwd}`]);
    assert.equal(process.cwd(), cwd);
  });

  test('a global replaced (fetch), or one of setTimeout mocked and never restored', () => {
    const realFetch = globalThis.fetch;
    const before = snapshot();
    globalThis.fetch = (async () => new Response('fake')) as typeof fetch;
    mock.method(globalThis, 'setTimeout');
    assert.deepEqual(foundAndRestored(before).sort(), ['globalThis.fetch was replaced', 'globalThis.setTimeout was replaced']);
    assert.equal(globalThis.fetch, realFetch);
    mock.restoreAll();
  });

  test("dns.lookup replaced: named, and put back for the modules' own `import { lookup }` too", () => {
    const realLookup = dns.lookup;
    const before = snapshot();
    (dns as { lookup: unknown }).lookup = () => {};
    syncBuiltinESMExports();
    assert.notEqual(lookup, realLookup);
    assert.deepEqual(foundAndRestored(before), ['dns.lookup was replaced']);
    assert.equal(dns.lookup, realLookup);
    assert.equal(lookup, realLookup);
  });

  test("a process listener added after the file's modules were loaded", () => {
    const before = snapshot();
    const loaded = listeners();
    const onExit = () => {};
    process.on('exit', onExit);
    const exitListeners = process.listenerCount('exit');
    assert.deepEqual(foundAndRestored(before, loaded), ["1 more process 'exit' listener"]);
    assert.equal(process.listenerCount('exit'), exitListeners - 1);
  });

  test("a lazy global's first use is no change", () => {
    // Node defines some globals as getters that replace themselves with their value on first use.
    const before = snapshot();
    void globalThis.navigator;
    void globalThis.crypto;
    void process.allowedNodeEnvironmentFlags;
    assert.deepEqual(foundAndRestored(before), []);
  });
});
