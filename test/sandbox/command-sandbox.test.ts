import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CommandSandbox, SandboxRequiredError } from '../../src/sandbox/command-sandbox.ts';
import { describeSandbox, sandboxBannerLine } from '../../src/sandbox/describe-sandbox.ts';
import { bwrapArguments } from '../../src/sandbox/bwrap-arguments.ts';
import { macosProfile } from '../../src/sandbox/macos-profile.ts';

const missing = () => ({ available: false as const, reason: 'bubblewrap (bwrap) is not installed' });
const sandbox = (mode: 'auto' | 'on' | 'off') =>
  new CommandSandbox({ settings: { mode, network: false, source: `--sandbox ${mode}` }, modeSource: `--sandbox ${mode}`, workspaceRoot: '/work', sylvanHome: '/home/ada/.sylvan', availability: missing });

describe('where no sandbox can start', () => {
  test('auto runs the command as it is', () => {
    assert.deepEqual(sandbox('auto').wrap('/bin/bash', ['-c', 'ls']), { file: '/bin/bash', args: ['-c', 'ls'], env: {}, sandboxed: false });
  });

  test('on refuses, with a sentence the model can pass on', () => {
    assert.throws(() => sandbox('on').wrap('/bin/bash', ['-c', 'ls']), (error: Error) => error instanceof SandboxRequiredError && /required .* cannot start: bubblewrap/.test(error.message));
  });

  test('off never asks for one', () => {
    let probed = false;
    const off = new CommandSandbox({ settings: { mode: 'off', network: false, source: 'x' }, workspaceRoot: '/work', sylvanHome: '/h', availability: () => ((probed = true), missing()) });
    assert.equal(off.wrap('/bin/sh', []).sandboxed, false);
    assert.equal(probed, false);
  });

  test('the banner and /sandbox say so', () => {
    assert.match(sandboxBannerLine({ mode: 'auto', network: false, source: 'the default (auto)' }, { PATH: '/nowhere' }) ?? '', /^\(commands run without a sandbox: bubblewrap \(bwrap\) is not installed/);
    assert.match(sandboxBannerLine({ mode: 'on', network: false, source: '--sandbox on' }, { PATH: '/nowhere' }) ?? '', /^\(commands will not run: the sandbox is required by --sandbox on/);
    assert.deepEqual(describeSandbox(sandbox('auto').state, '/work')[0], 'Commands run without a sandbox: bubblewrap (bwrap) is not installed.');
  });
});

describe('the fence', () => {
  test('bwrap: the read-only root first, new namespaces, death with Sylvan, and the host network only when allowed', () => {
    const args = bwrapArguments({ workspaceRoot: '/work', hidden: ['/dev/null-does-not-exist', '/work/.sylvan-home'], network: false });
    assert.deepEqual(args.slice(0, 8), ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs']);
    assert.ok(args.includes('--unshare-net') && args.includes('--unshare-pid') && args.includes('--die-with-parent'));
    assert.ok(!bwrapArguments({ workspaceRoot: '/work', hidden: [], network: true }).includes('--unshare-net'));
  });

  test("bwrap: Sylvan's own folder under /tmp stays readable over the private /tmp (a clone there, as CI makes)", () => {
    const args = bwrapArguments({ workspaceRoot: '/work', hidden: [], network: false, readOnlyInTemporary: ['/tmp/sylvan-clone'] });
    const tmpfs = args.indexOf('--tmpfs');
    assert.equal(args[tmpfs + 1], '/tmp');
    assert.deepEqual(args.slice(tmpfs + 2, tmpfs + 5), ['--ro-bind', '/tmp/sylvan-clone', '/tmp/sylvan-clone'], 'bound after the tmpfs, read-only');
  });

  test('sandbox-exec (macOS, untested here): writes only in the workspace and temp folders, hidden paths unreadable, no network', () => {
    const profile = macosProfile({ workspaceRoot: '/Users/ada/work', hidden: ['/Users/ada/.ssh'], network: false }, ['/var/folders/x']);
    assert.match(profile, /\(deny file-write\*\)/);
    assert.match(profile, /\(allow file-write\* \(subpath "\/Users\/ada\/work"\)/);
    assert.match(profile, /\(deny file-read\* file-write\* \(subpath "\/Users\/ada\/\.ssh"\)\)/);
    assert.match(profile, /\(deny network\*\)/);
  });
});
