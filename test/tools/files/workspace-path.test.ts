import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isSecretPath, resolveWorkspacePath, resolveWorkspaceTarget } from '../../../src/shared/workspace-path.ts';

let workspace: string;
let outside: string;

before(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'sylvan-workspace-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'sylvan-outside-'));
  await mkdir(path.join(workspace, 'a'));
  await writeFile(path.join(workspace, 'b.txt'), 'b\n');
  await writeFile(path.join(outside, 'secret.txt'), 'not yours\n');
  await symlink(path.join(outside, 'secret.txt'), path.join(workspace, 'escape.txt'));
  await symlink(outside, path.join(workspace, 'escape-dir'));
  await symlink(path.join(workspace, 'b.txt'), path.join(workspace, 'inside-link.txt'));
  await symlink(path.join(outside, 'missing.txt'), path.join(workspace, 'dangling.txt'));
  await writeFile(path.join(workspace, '.env'), 'API_KEY=sk-123\n');
  await symlink(path.join(workspace, '.env'), path.join(workspace, 'innocent.txt'));
});

after(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('resolveWorkspacePath boundary', () => {
  test('refuses .. that climbs out, naming the path and the workspace', async () => {
    await assert.rejects(resolveWorkspacePath(workspace, '../../etc/passwd'), (error: Error) => {
      assert.match(error.message, /path \.\.\/\.\.\/etc\/passwd is outside the workspace/);
      assert.ok(error.message.includes(workspace));
      assert.match(error.message, /use a path inside it/);
      return true;
    });
  });

  test('refuses an absolute path outside the workspace', async () => {
    await assert.rejects(resolveWorkspacePath(workspace, '/etc/passwd'), /outside the workspace/);
  });

  test('refuses a symlinked file pointing outside', async () => {
    await assert.rejects(resolveWorkspacePath(workspace, 'escape.txt'), /escape\.txt is a symbolic link to .*outside|outside the workspace.*escape\.txt is a symbolic link/);
  });

  test('refuses a path through a symlinked folder pointing outside, for reading and for writing a new file', async () => {
    await assert.rejects(resolveWorkspacePath(workspace, 'escape-dir/secret.txt'), /outside the workspace/);
    await assert.rejects(resolveWorkspacePath(workspace, 'escape-dir/new/file.txt', { forWrite: true }), /outside the workspace/);
  });

  test('refuses a broken symlink, whose target a write would create outside', async () => {
    await assert.rejects(resolveWorkspacePath(workspace, 'dangling.txt', { forWrite: true }), /symbolic link whose target does not exist/);
  });

  test('accepts .. that stays inside and returns the real path', async () => {
    const real = await realpath(workspace);
    assert.equal(await resolveWorkspacePath(workspace, 'a/../b.txt'), path.join(real, 'b.txt'));
  });

  test('accepts an absolute path inside the workspace', async () => {
    const real = await realpath(workspace);
    assert.equal(await resolveWorkspacePath(workspace, path.join(workspace, 'b.txt')), path.join(real, 'b.txt'));
  });

  test('follows a symlink that stays inside to its target', async () => {
    const target = await resolveWorkspaceTarget(workspace, 'inside-link.txt');
    assert.equal(target.relativePath, 'b.txt');
  });

  test('accepts a file that does not exist yet under new folders', async () => {
    const target = await resolveWorkspaceTarget(workspace, 'new/deeper/file.txt', { forWrite: true });
    assert.equal(target.relativePath, 'new/deeper/file.txt');
  });

  test('refuses ~, NUL bytes and writing the root itself', async () => {
    await assert.rejects(resolveWorkspacePath(workspace, '~/.ssh/config'), /~, which is not expanded/);
    await assert.rejects(resolveWorkspacePath(workspace, '~'), /not expanded/);
    await assert.rejects(resolveWorkspacePath(workspace, 'b.txt\0.png'), /NUL byte/);
    await assert.rejects(resolveWorkspacePath(workspace, '.', { forWrite: true }), /workspace folder itself/);
  });

  test('accepts a workspace root given through a symlink (like /tmp on macOS)', async () => {
    const linkedRoot = path.join(outside, 'linked-workspace');
    await symlink(workspace, linkedRoot);
    const real = await realpath(workspace);
    assert.equal(await resolveWorkspacePath(linkedRoot, 'b.txt'), path.join(real, 'b.txt'));
    assert.equal(await resolveWorkspacePath(linkedRoot, path.join(linkedRoot, 'b.txt')), path.join(real, 'b.txt'));
  });

  test('finds a name stored in NFD when asked in NFC', async () => {
    const decomposed = 'cafe\u0301.txt';
    await writeFile(path.join(workspace, decomposed), 'coffee\n');
    const target = await resolveWorkspaceTarget(workspace, 'caf\u00e9.txt');
    assert.equal(target.relativePath, decomposed);
  });
});

describe('secret files', () => {
  test('refuses reading .env with a message for the model', async () => {
    await assert.rejects(
      resolveWorkspacePath(workspace, '.env'),
      { message: 'reading .env is refused: it may hold secrets such as API keys, which must not be sent to the model' },
    );
  });

  test('refuses writing a secret file', async () => {
    await assert.rejects(resolveWorkspacePath(workspace, 'config/.env.local', { forWrite: true }), /^Error: writing config\/\.env\.local is refused/);
  });

  test('refuses a harmless-looking link to a secret file', async () => {
    await assert.rejects(resolveWorkspacePath(workspace, 'innocent.txt'), /innocent\.txt \(a link to \.env\) is refused/);
  });

  test('lets list_files resolve without the secret check', async () => {
    const real = await realpath(workspace);
    assert.equal(await resolveWorkspacePath(workspace, '.env', { refuseSecrets: false }), path.join(real, '.env'));
  });

  test('isSecretPath knows the built-in patterns and allows env templates', () => {
    for (const secret of ['.env', '.env.local', 'deploy/.env.production', 'server.pem', 'tls.key', 'id_rsa', 'id_rsa.pub', '.ssh/id_ed25519', 'id_ecdsa', 'cert.p12', 'cert.pfx', '.npmrc', '.netrc', '.ENV']) {
      assert.equal(isSecretPath(secret), true, secret);
    }
    for (const harmless of ['.env.example', '.env.sample', 'config/.env.template', 'README.md', 'environment.ts', 'keys.json', 'src/env.ts']) {
      assert.equal(isSecretPath(harmless), false, harmless);
    }
  });

  test('custom patterns are refused, by name or by path', async () => {
    assert.equal(isSecretPath('config/credentials.json', ['credentials.*']), true);
    assert.equal(isSecretPath('private/notes.md', ['private/**']), true);
    assert.equal(isSecretPath('public/notes.md', ['private/**']), false);
    await writeFile(path.join(workspace, 'tokens.yaml'), 'token: x\n');
    await assert.rejects(resolveWorkspacePath(workspace, 'tokens.yaml', { secretPatterns: ['*.yaml'] }), /reading tokens\.yaml is refused/);
    await resolveWorkspacePath(workspace, 'tokens.yaml');
  });
});
