import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressPolicy } from '../../../src/tools/web/address-guard.ts';

const strict = addressPolicy(false);
const relaxed = addressPolicy(true);

describe('the address guard', { timeout: 5_000 }, () => {
  test('refuses loopback, private, link-local, CGNAT, unspecified and the IPv6 local ranges', () => {
    const refused = [
      '127.0.0.1', '127.255.255.254', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.1.1',
      '100.64.0.1', '100.127.255.255', '0.0.0.0', '255.255.255.255', '224.0.0.1',
      '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1',
    ];
    for (const address of refused) assert.ok(strict(address), `${address} should be refused`);
  });

  test('sees through IPv4 hidden in IPv6: mapped, compatible, NAT64 and 6to4 forms', () => {
    for (const address of ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '::127.0.0.1', '64:ff9b::a00:1', '2002:c0a8:101::1']) {
      assert.ok(strict(address), `${address} should be refused`);
    }
    assert.equal(strict('::ffff:8.8.8.8'), undefined, 'a mapped public address is public');
  });

  test('allows public addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888']) {
      assert.equal(strict(address), undefined, `${address} should be allowed`);
    }
  });

  test('the override opens loopback and private ranges but never the metadata services', () => {
    assert.equal(relaxed('127.0.0.1'), undefined);
    assert.equal(relaxed('10.0.0.1'), undefined);
    assert.equal(relaxed('::1'), undefined);
    for (const address of ['169.254.169.254', '::ffff:169.254.169.254', '100.100.100.200', 'fd00:ec2::254']) {
      assert.match(relaxed(address) ?? '', /metadata/, `${address} should stay refused`);
    }
  });
});
