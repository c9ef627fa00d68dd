import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveSandboxSettings } from '../../src/sandbox/sandbox-settings.ts';

const user = (sandbox: unknown) => ({ file: '/home/ada/.sylvan/settings.json', trusted: true, values: { sandbox } });
const project = (sandbox: unknown) => ({ file: '/work/.sylvan/settings.json', trusted: false, values: { sandbox } });
const resolve = (input: Partial<Parameters<typeof resolveSandboxSettings>[0]>) =>
  resolveSandboxSettings({ flag: undefined, trustedVariable: undefined, folderVariable: undefined, layers: [], fail: (message) => new Error(message), ...input });

describe('sandbox settings', () => {
  test('auto and no network by default', () => {
    assert.deepEqual(resolve({}), { mode: 'auto', network: false, source: 'the default (auto)' });
  });

  test('the flag wins over the environment, the environment over the user file', () => {
    assert.equal(resolve({ flag: 'off', trustedVariable: 'on', layers: [user({ mode: 'on' })] }).mode, 'off');
    assert.equal(resolve({ trustedVariable: 'off', layers: [user({ mode: 'on' })] }).source, 'SYLVAN_SANDBOX=off');
    assert.equal(resolve({ layers: [user({ mode: 'off', network: true })] }).mode, 'off');
    assert.equal(resolve({ layers: [user({ network: true })] }).network, true);
  });

  test('a project file may turn the sandbox on, never off, never the network on', () => {
    assert.equal(resolve({ layers: [user({ mode: 'off' }), project({ mode: 'on' })] }).mode, 'on');
    assert.throws(() => resolve({ layers: [project({ mode: 'off' })] }), /cannot turn the sandbox off/);
    assert.throws(() => resolve({ layers: [project({ network: true })] }), /cannot give commands the network/);
    assert.equal(resolve({ folderVariable: 'off' }).mode, 'auto', "a .env's SYLVAN_SANDBOX=off changes nothing");
    assert.equal(resolve({ trustedVariable: 'off', folderVariable: 'on' }).mode, 'on');
  });

  test('a wrong value is one line naming file and key', () => {
    assert.throws(() => resolve({ layers: [user({ mode: 'sometimes' })] }), /settings\.json: sandbox\.mode must be auto, on or off/);
    assert.throws(() => resolve({ layers: [user({ netwrok: true })] }), /sandbox\.netwrok: unknown setting/);
    assert.throws(() => resolve({ flag: 'maybe' }), /--sandbox must be auto, on or off/);
  });
});
