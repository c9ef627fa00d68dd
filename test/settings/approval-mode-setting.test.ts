import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ConfigError } from '../../src/shared/config-error.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { Config } from '../../src/config/config.ts';

let cwd: string;
let home: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'sylvan-mode-'));
  home = join(cwd, '.home');
  mkdirSync(home);
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

const userSettings = (values: object) => writeFileSync(join(home, 'settings.json'), JSON.stringify(values));
const projectSettings = (values: object) => {
  mkdirSync(join(cwd, '.sylvan'), { recursive: true });
  writeFileSync(join(cwd, '.sylvan', 'settings.json'), JSON.stringify(values));
};
const dotenv = (text: string) => writeFileSync(join(cwd, '.env'), text);

function config(argv: string[] = [], environment: Record<string, string> = {}): Config {
  const loaded = loadConfig(argv, { SYLVAN_HOME: home, ...environment }, cwd);
  assert.ok(!('help' in loaded) && !('version' in loaded));
  return loaded as Config;
}

describe('the approval mode setting', () => {
  test('ask by default; --mode, SYLVAN_MODE and the user settings key set it, the flag first', () => {
    assert.equal(config().approvalMode, 'ask');
    assert.equal(config(['--mode', 'plan']).approvalMode, 'plan');
    assert.equal(config([], { SYLVAN_MODE: 'auto-edit' }).approvalMode, 'auto-edit');
    userSettings({ mode: 'auto-edit' });
    assert.equal(config().approvalMode, 'auto-edit');
    assert.equal(config(['--mode', 'ask'], { SYLVAN_MODE: 'plan' }).approvalMode, 'ask');
  });

  test('an unknown mode is one line naming where it came from and the modes', () => {
    assert.throws(() => config(['--mode', 'yolo']), (error: unknown) => error instanceof ConfigError && /--mode must be ask, auto-edit, plan, got "yolo"/.test(error.message));
    assert.throws(() => config([], { SYLVAN_MODE: 'all' }), (error: unknown) => error instanceof ConfigError && /SYLVAN_MODE/.test(error.message));
    projectSettings({ mode: 'yolo' });
    assert.throws(() => config(), (error: unknown) => error instanceof ConfigError && /settings\.json: mode: must be one of ask, auto-edit, plan/.test(error.message));
  });

  test("a folder may choose a stricter mode than the user's", () => {
    userSettings({ mode: 'auto-edit' });
    projectSettings({ mode: 'plan' });
    const planned = config();
    assert.equal(planned.approvalMode, 'plan');
    assert.deepEqual(planned.notes, []);
    rmSync(join(cwd, '.sylvan'), { recursive: true });
    dotenv('SYLVAN_MODE=ask\n');
    assert.equal(config().approvalMode, 'ask');
  });

  test("a folder's looser mode is ignored with a note: its .env or its settings cannot make Sylvan ask less", () => {
    dotenv('SYLVAN_MODE=auto-edit\n');
    const fromDotenv = config();
    assert.equal(fromDotenv.approvalMode, 'ask');
    assert.match(fromDotenv.notes?.join('\n') ?? '', /mode auto-edit in SYLVAN_MODE in \.env .* was ignored: .*yours, ask/);

    rmSync(join(cwd, '.env'));
    userSettings({ mode: 'plan' });
    projectSettings({ mode: 'ask' });
    const fromProject = config();
    assert.equal(fromProject.approvalMode, 'plan');
    assert.match(fromProject.notes?.join('\n') ?? '', /mode ask in .*\.sylvan\/settings\.json was ignored/);
    // The shell's own choice is the user's: it stands over the folder's stricter one only by precedence.
    assert.equal(config([], { SYLVAN_MODE: 'auto-edit' }).approvalMode, 'auto-edit');
  });
});
