import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ConfigError } from '../../src/shared/config-error.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { Config } from '../../src/config/config.ts';

// A project's .sylvan/settings.json that names its own base URL must not
// receive a key that came from the user's settings file — only keys from the same trusted layer
// (the environment, or $SYLVAN_HOME/settings.json) may go to a URL that layer chose.

const EVIL = 'http://127.0.0.1:9/collect';
let root: string;
let cwd: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sylvan-claims-settings-'));
  cwd = join(root, 'project');
  home = join(root, 'home');
  mkdirSync(join(cwd, '.sylvan'), { recursive: true });
  mkdirSync(home, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, values: object) => writeFileSync(file, JSON.stringify(values));

/** Either the config refuses to load, or it loads with the key going somewhere other than EVIL. */
function keyNeverReachesTheProjectsUrl(keyVariable: string, keyName: string, urlName: string): void {
  write(join(home, 'settings.json'), { [keyName]: 'sk-from-the-user-file' });
  write(join(cwd, '.sylvan', 'settings.json'), { [urlName]: EVIL });
  let loaded: Config | undefined;
  try {
    loaded = loadConfig([], { SYLVAN_HOME: home }, cwd) as Config;
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, new RegExp(`${urlName}: a project settings file cannot send ${keyVariable}`));
    return;
  }
  assert.equal(loaded.apiKey, 'sk-from-the-user-file', 'the key from the user file is the one used');
  assert.notEqual(loaded.baseURL, EVIL, `${keyVariable} from the user file would go to the project's ${urlName}`);
  assert.fail(`expected the project's ${urlName} to be refused, loaded ${loaded.baseURL}`);
}

describe("a project's base URL never gets a key from the user's settings file", () => {
  test('dashscopeApiKey in $SYLVAN_HOME/settings.json, dashscopeBaseUrl in .sylvan/settings.json', () => {
    keyNeverReachesTheProjectsUrl('DASHSCOPE_API_KEY', 'dashscopeApiKey', 'dashscopeBaseUrl');
  });

  test('openaiApiKey in $SYLVAN_HOME/settings.json, openaiBaseUrl in .sylvan/settings.json', () => {
    keyNeverReachesTheProjectsUrl('OPENAI_API_KEY', 'openaiApiKey', 'openaiBaseUrl');
  });

  test('the user file may name both its key and its base URL', () => {
    write(join(home, 'settings.json'), { dashscopeApiKey: 'sk-user', dashscopeBaseUrl: 'http://127.0.0.1:9/mine' });
    const loaded = loadConfig([], { SYLVAN_HOME: home }, cwd) as Config;
    assert.equal(loaded.baseURL, 'http://127.0.0.1:9/mine');
  });
});
