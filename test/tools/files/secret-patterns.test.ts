import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../../../src/config/load-config.ts';
import type { Config } from '../../../src/config/config.ts';
import { createTools } from '../../../src/tools/registry/create-tools.ts';

// search_files honours the extra secret patterns (SYLVAN_SECRET_PATTERNS and
// permissions.secretPatterns, through the config as a user sets them) as read_file does;
// .ssh/config and known_hosts are refused.

const root = mkdtempSync(join(tmpdir(), 'sylvan-secret-patterns-'));
after(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'project');
const home = join(root, 'home');
const write = (path: string, content: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
};
write(join(home, 'settings.json'), JSON.stringify({ permissions: { secretPatterns: ['vault/**'] } }));
write(join(cwd, '.sylvan', 'settings.json'), JSON.stringify({ permissions: { secretPatterns: ['*.sqlite'] } }));
const secrets = {
  'tokens.yaml': 'needle from SYLVAN_SECRET_PATTERNS',
  'vault/pass.txt': "needle from the user's permissions.secretPatterns",
  'data.sqlite': "needle from the project's permissions.secretPatterns",
  '.ssh/config': 'Host needle-host\n  IdentityFile ~/.ssh/id_ed25519\n',
  '.ssh/known_hosts': 'needle.example.com ssh-ed25519 AAAAC3Nza\n',
  'deploy/.ssh/known_hosts': 'needle.internal ssh-rsa AAAAB3Nza\n',
};
for (const [path, content] of Object.entries(secrets)) write(join(cwd, path), content);
write(join(cwd, 'notes.txt'), 'needle in plain notes\n');

const config = loadConfig([], { SYLVAN_HOME: home, SYLVAN_SECRET_PATTERNS: '*.yaml, *.pfx' }, cwd) as Config;
const tools = createTools({ workspaceRoot: cwd, weather: 'sample', secretPatterns: config.secretPatterns, toolTimeoutMs: 20_000 });
const call = async (name: 'search_files' | 'read_file', input: object): Promise<string> => {
  const execute = tools[name].execute as (input: unknown, options: unknown) => Promise<string>;
  try {
    return await execute(input, { toolCallId: 'call-1', messages: [] });
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
};

describe('secret files, as the tools a model calls see them', { timeout: 30_000 }, () => {
  test('search_files searches the plain file and none of the secret ones', async () => {
    const result = await call('search_files', { pattern: 'needle' });
    assert.match(result, /notes\.txt:1: needle in plain notes/);
    for (const [path, content] of Object.entries(secrets)) {
      assert.ok(!result.includes(path), `${path} was searched:\n${result}`);
      assert.ok(!result.includes(content.split('\n')[0]!), `${path}'s content is in the result:\n${result}`);
    }
    // vault/, .ssh/ and deploy/.ssh/ hold only secrets: not opened at all.
    assert.match(result, /2 secret files \(such as \.env\) not searched/);
    assert.match(result, /3 folders of credentials or Sylvan's own settings \(such as \.ssh\/\) not searched/);
  });

  for (const path of Object.keys(secrets)) {
    test(`${path}: read_file refuses it, and so does search_files given it as its path`, async () => {
      assert.match(await call('read_file', { path }), /^refused: .*refused/);
      assert.match(await call('search_files', { pattern: 'needle', path }), /^refused: .*refused/);
    });
  }
});
