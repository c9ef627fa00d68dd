import assert from 'node:assert/strict';
import dns, { type LookupAddress } from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { addressPolicy, BlockedAddressError, guardedLookup, refusedHost } from '../../../src/tools/web/address-guard.ts';

// A host name that resolves to a public AND a private address is refused —
// every DNS answer is checked, not the first. DNS is faked (no network): node:dns's lookup is
// replaced and the ESM bindings synced, so the guard's own `import { lookup }` sees the fake.

const answers: Record<string, LookupAddress[]> = {
  'public-then-private.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.1.2.3', family: 4 },
  ],
  'public-then-loopback6.test': [
    { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    { address: '::1', family: 6 },
  ],
  'public-then-metadata.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '93.184.216.35', family: 4 },
    { address: '169.254.169.254', family: 4 },
  ],
  'public-only.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '93.184.216.35', family: 4 },
  ],
};

const realLookup = dns.lookup;
before(() => {
  (dns as { lookup: unknown }).lookup = (host: string, _options: unknown, callback: (error: Error | null, found: LookupAddress[]) => void) => {
    const found = answers[host];
    if (!found) return callback(Object.assign(new Error(`fake DNS has no ${host}`), { code: 'ENOTFOUND' }), []);
    callback(null, found);
  };
  syncBuiltinESMExports();
});
after(() => {
  (dns as { lookup: unknown }).lookup = realLookup;
  syncBuiltinESMExports();
});

const policy = addressPolicy(false);
const lookupWith = (host: string, all: boolean) =>
  new Promise<{ error: unknown; address: unknown }>((resolve) => guardedLookup(policy)(host, { all }, (error, address) => resolve({ error, address })));

describe('a name with a public and a private address', () => {
  for (const host of ['public-then-private.test', 'public-then-loopback6.test', 'public-then-metadata.test']) {
    const refused = answers[host]!.at(-1)!.address;
    test(`${host}: the connection's lookup refuses it, naming ${refused}`, async () => {
      for (const all of [false, true]) {
        const { error, address } = await lookupWith(host, all);
        assert.ok(error instanceof BlockedAddressError, `all=${all}: expected a refusal, got address ${JSON.stringify(address)}`);
        assert.ok(error.message.includes(refused), error.message);
      }
    });

    test(`${host}: a redirect's host check refuses it too`, async () => {
      const message = await refusedHost(host, policy);
      assert.ok(message?.includes(refused), `expected a refusal naming ${refused}, got ${message}`);
    });
  }

  test('a name with only public addresses passes both checks', async () => {
    const { error, address } = await lookupWith('public-only.test', false);
    assert.equal(error, null);
    assert.equal(address, '93.184.216.34');
    assert.equal(await refusedHost('public-only.test', policy), undefined);
  });
});
