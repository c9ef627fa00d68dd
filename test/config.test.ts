import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ConfigError } from '../src/shared/config-error.ts';
import { DASHSCOPE_BASE_URL } from '../src/config/provider-choice.ts';
import { loadConfig } from '../src/config/load-config.ts';
import type { Config } from '../src/config/config.ts';

type Environment = Record<string, string | undefined>;

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'sylvan-config-'));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

function writeDotenv(text: string): void {
  writeFileSync(join(cwd, '.env'), text);
}

/** A full Config (not help/version), or the test fails. */
function config(argv: string[] = [], environment: Environment = {}): Config {
  const loaded = loadConfig(argv, environment, cwd);
  assert.ok(!('help' in loaded) && !('version' in loaded), 'expected a Config');
  return loaded as Config;
}

/** The ConfigError's message; fails unless it is one line that mentions `names`. */
function configError(argv: string[], environment: Environment, ...names: string[]): string {
  let caught: unknown;
  try {
    loadConfig(argv, environment, cwd);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  const message = caught.message;
  assert.equal(message.includes('\n'), false, `not one line: ${JSON.stringify(message)}`);
  for (const name of names) assert.ok(message.includes(name), `${JSON.stringify(message)} should mention ${name}`);
  return message;
}

describe('loadConfig: precedence', () => {
  test('a flag beats the environment, which beats .env', () => {
    writeDotenv('SYLVAN_MAX_STEPS=3\nSYLVAN_TOKEN_BUDGET=1000\nSYLVAN_TIMEOUT=30\n');
    assert.equal(config([]).timeoutSeconds, 30);
    assert.equal(config([], { SYLVAN_TIMEOUT: '50' }).timeoutSeconds, 50);
    assert.equal(config(['--timeout', '25'], { SYLVAN_TIMEOUT: '50' }).timeoutSeconds, 25);
    assert.equal(config(['--max-steps', '7'], { SYLVAN_MAX_STEPS: '5' }).maxSteps, 7);
    assert.equal(config(['--token-budget', '9000'], { SYLVAN_TOKEN_BUDGET: '2000' }).tokenBudget, 9000);
  });

  test("the step limit and the token budget: a folder's .env may lower the user's value, never raise it", () => {
    writeDotenv('SYLVAN_MAX_STEPS=3\nSYLVAN_TOKEN_BUDGET=1000\n');
    assert.equal(config([]).maxSteps, 3);
    assert.equal(config([], { SYLVAN_MAX_STEPS: '5' }).maxSteps, 3);
    assert.equal(config([], { SYLVAN_MAX_STEPS: '2' }).maxSteps, 2);
    assert.equal(config([], { SYLVAN_TOKEN_BUDGET: '500' }).tokenBudget, 500);
    assert.equal(config([]).tokenBudget, 1000);
  });

  test('.env in the working directory provides keys; the environment overrides them', () => {
    writeDotenv('DASHSCOPE_API_KEY=sk-from-dotenv\nSYLVAN_MODEL=qwen-max\n');
    const fromFile = config();
    assert.equal(fromFile.provider, 'dashscope');
    assert.equal(fromFile.apiKey, 'sk-from-dotenv');
    assert.equal(fromFile.model, 'qwen-max');
    const overridden = config([], { DASHSCOPE_API_KEY: 'sk-from-env', SYLVAN_MODEL: 'qwen-turbo' });
    assert.equal(overridden.apiKey, 'sk-from-env');
    assert.equal(overridden.model, 'qwen-turbo');
  });

  test('defaults with nothing set', () => {
    const loaded = config();
    assert.equal(loaded.maxSteps, 10);
    assert.equal(loaded.tokenBudget, 500_000);
    assert.equal(loaded.timeoutSeconds, 120);
    assert.equal(loaded.toolTimeoutSeconds, 60);
    assert.equal(loaded.maxRetries, 3);
    assert.equal(loaded.yes, false);
    assert.deepEqual(loaded.mode, { kind: 'repl' });
    assert.equal(loaded.json, false);
    assert.equal(loaded.resume, undefined);
    assert.equal(loaded.cwd, cwd);
  });

  test('empty-string environment values are treated as unset', () => {
    const loaded = config([], {
      DASHSCOPE_API_KEY: '',
      OPENAI_API_KEY: '  ',
      SYLVAN_PROVIDER: '',
      SYLVAN_MODEL: '',
      SYLVAN_MAX_STEPS: '',
      SYLVAN_WEATHER: '',
      SYLVAN_HOME: '',
    });
    assert.equal(loaded.provider, 'mock');
    assert.equal(loaded.model, 'mock');
    assert.equal(loaded.maxSteps, 10);
    assert.equal(loaded.weather, 'sample');
    assert.notEqual(loaded.home, '');
  });

  test(
    'an empty environment value does not hide the value in .env',
    () => {
      writeDotenv('DASHSCOPE_API_KEY=sk-from-dotenv\nSYLVAN_MAX_STEPS=4\n');
      const loaded = config([], { DASHSCOPE_API_KEY: '', SYLVAN_MAX_STEPS: '' });
      assert.equal(loaded.provider, 'dashscope');
      assert.equal(loaded.apiKey, 'sk-from-dotenv');
      assert.equal(loaded.maxSteps, 4);
    },
  );

  test('SYLVAN_YES accepts 1/true/yes/on; --yes wins', () => {
    for (const value of ['1', 'true', 'YES', 'on']) assert.equal(config([], { SYLVAN_YES: value }).yes, true, value);
    for (const value of ['0', 'false', 'no', '']) assert.equal(config([], { SYLVAN_YES: value }).yes, false, value);
    assert.equal(config(['-y']).yes, true);
    assert.equal(config(['--yes'], { SYLVAN_YES: '0' }).yes, true);
  });

  test('SYLVAN_SECRET_PATTERNS is split on commas, blanks dropped', () => {
    assert.deepEqual(config([], { SYLVAN_SECRET_PATTERNS: ' *.secret , ,creds/** ' }).secretPatterns, ['*.secret', 'creds/**']);
  });
});

describe('loadConfig: provider selection', () => {
  test('DASHSCOPE_API_KEY selects dashscope with the default base URL and qwen-plus-latest', () => {
    const loaded = config([], { DASHSCOPE_API_KEY: 'sk-test' });
    assert.equal(loaded.provider, 'dashscope');
    assert.equal(loaded.apiKey, 'sk-test');
    assert.equal(loaded.baseURL, DASHSCOPE_BASE_URL);
    assert.equal(loaded.baseURL, 'https://dashscope.aliyuncs.com/compatible-mode/v1');
    assert.equal(loaded.model, 'qwen-plus-latest');
    assert.equal(loaded.keyVariable, 'DASHSCOPE_API_KEY');
    assert.equal(loaded.baseUrlVariable, 'DASHSCOPE_BASE_URL');
    assert.equal(loaded.contextTokens, 131_072);
    assert.equal(loaded.weather, 'live');
  });

  test('DASHSCOPE_BASE_URL overrides the endpoint; a trailing slash is dropped', () => {
    const international = 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1';
    assert.equal(config([], { DASHSCOPE_API_KEY: 'sk', DASHSCOPE_BASE_URL: `${international}/` }).baseURL, international);
  });

  test('OPENAI_API_KEY selects openai with its default base URL and model', () => {
    const loaded = config([], { OPENAI_API_KEY: 'sk-openai' });
    assert.equal(loaded.provider, 'openai');
    assert.equal(loaded.apiKey, 'sk-openai');
    assert.equal(loaded.baseURL, 'https://api.openai.com/v1');
    assert.equal(loaded.model, 'gpt-4o-mini');
    assert.equal(loaded.keyVariable, 'OPENAI_API_KEY');
    assert.equal(loaded.baseUrlVariable, 'OPENAI_BASE_URL');
  });

  test('with both keys, DashScope wins', () => {
    assert.equal(config([], { DASHSCOPE_API_KEY: 'a', OPENAI_API_KEY: 'b' }).provider, 'dashscope');
  });

  test('SYLVAN_PROVIDER=openai with only OPENAI_BASE_URL (a local server) gets a placeholder key', () => {
    const loaded = config([], { SYLVAN_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' });
    assert.equal(loaded.provider, 'openai');
    assert.equal(loaded.baseURL, 'http://127.0.0.1:11434/v1');
    assert.equal(typeof loaded.apiKey, 'string');
    assert.notEqual(loaded.apiKey, '');
  });

  test(
    'OPENAI_BASE_URL alone selects openai with a placeholder key',
    () => {
      const loaded = config([], { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' });
      assert.equal(loaded.provider, 'openai');
      assert.equal(loaded.baseURL, 'http://127.0.0.1:11434/v1');
      assert.equal(loaded.apiKey, 'no-key');
    },
  );

  test('no key: the mock model with sample weather', () => {
    const loaded = config();
    assert.equal(loaded.provider, 'mock');
    assert.equal(loaded.model, 'mock');
    assert.equal(loaded.weather, 'sample');
    assert.equal(loaded.apiKey, undefined);
    assert.equal(loaded.baseURL, undefined);
  });

  test('SYLVAN_WEATHER overrides the default for the provider', () => {
    assert.equal(config([], { SYLVAN_WEATHER: 'live' }).weather, 'live');
    assert.equal(config([], { DASHSCOPE_API_KEY: 'sk', SYLVAN_WEATHER: 'sample' }).weather, 'sample');
  });

  test('SYLVAN_CACHE: explicit by default, implicit or off when set', () => {
    assert.equal(config([], { DASHSCOPE_API_KEY: 'sk' }).cache, 'explicit');
    assert.equal(config([], { DASHSCOPE_API_KEY: 'sk', SYLVAN_CACHE: 'off' }).cache, 'off');
    assert.equal(config([], { DASHSCOPE_API_KEY: 'sk', SYLVAN_CACHE: 'implicit' }).cache, 'implicit');
  });

  test('--provider beats SYLVAN_PROVIDER, which beats the keys', () => {
    const environment = { DASHSCOPE_API_KEY: 'sk', SYLVAN_PROVIDER: 'mock' };
    assert.equal(config([], environment).provider, 'mock');
    assert.equal(config(['--provider', 'dashscope'], environment).provider, 'dashscope');
  });

  test('--model / -m beat SYLVAN_MODEL, which beats the provider default; the context window follows the model', () => {
    const environment = { DASHSCOPE_API_KEY: 'sk', SYLVAN_MODEL: 'qwen-max' };
    assert.equal(config([], environment).model, 'qwen-max');
    assert.equal(config([], environment).contextTokens, 32_768);
    assert.equal(config(['--model', 'qwen-turbo'], environment).model, 'qwen-turbo');
    assert.equal(config(['-m', 'qwen3-max'], environment).contextTokens, 262_144);
  });

  test('OPENAI_MODEL and DASHSCOPE_MODEL name the model of their own provider, below --model and SYLVAN_MODEL, above the settings', () => {
    const home = join(cwd, 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ model: 'from-settings' }));
    const openai = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', SYLVAN_HOME: home };
    assert.equal(config([], openai).model, 'from-settings');
    assert.equal(config([], { ...openai, OPENAI_MODEL: 'fake-model' }).model, 'fake-model');
    assert.equal(config([], { ...openai, OPENAI_MODEL: 'fake-model', SYLVAN_MODEL: 'sylvan-model' }).model, 'sylvan-model');
    assert.equal(config(['-m', 'flag-model'], { ...openai, OPENAI_MODEL: 'fake-model', SYLVAN_MODEL: 'sylvan-model' }).model, 'flag-model');
    // Another provider's variable is not this one's model.
    assert.equal(config([], { ...openai, DASHSCOPE_MODEL: 'qwen-max' }).model, 'from-settings');
    assert.equal(config([], { DASHSCOPE_API_KEY: 'sk', DASHSCOPE_MODEL: 'qwen3-max', OPENAI_MODEL: 'gpt-4o' }).model, 'qwen3-max');
    assert.equal(config([], { DASHSCOPE_API_KEY: 'sk', DASHSCOPE_MODEL: 'qwen3-max' }).contextTokens, 262_144);
    // SYLVAN_MODEL in .env still comes before OPENAI_MODEL in the shell: the environment and .env are one tier.
    writeDotenv('SYLVAN_MODEL=dotenv-model\n');
    assert.equal(config([], { ...openai, OPENAI_MODEL: 'fake-model' }).model, 'dotenv-model');
  });

  test('SYLVAN_CONTEXT_TOKENS overrides the known window', () => {
    assert.equal(config([], { DASHSCOPE_API_KEY: 'sk', SYLVAN_CONTEXT_TOKENS: '8000' }).contextTokens, 8000);
  });
});

describe('loadConfig: invalid values are one-line ConfigErrors naming the culprit', () => {
  test('an unknown provider', () => {
    configError(['--provider', 'anthropic'], {}, 'anthropic', 'dashscope', 'openai', 'mock');
    configError([], { SYLVAN_PROVIDER: 'gemini' }, 'gemini');
  });

  test('--max-steps 0, abc and 1.5', () => {
    for (const value of ['0', 'abc', '1.5', '-3']) configError([`--max-steps=${value}`], {}, '--max-steps', value);
  });

  test('--timeout -1, as a separate argument and with =', () => {
    configError(['--timeout', '-1'], {}, '--timeout');
    configError(['--timeout=-1'], {}, '--timeout', '-1');
    configError(['--timeout', '0'], {}, '--timeout');
  });

  test('--token-budget must be a positive whole number', () => {
    configError(['--token-budget', '0'], {}, '--token-budget');
  });

  test('a flag without its value', () => {
    configError(['--max-steps'], {}, '--max-steps');
  });

  test(
    'a bad SYLVAN_MAX_STEPS / SYLVAN_TOKEN_BUDGET / SYLVAN_TIMEOUT names the variable, not the flag',
    () => {
      configError([], { SYLVAN_MAX_STEPS: '0' }, 'SYLVAN_MAX_STEPS');
      configError([], { SYLVAN_TOKEN_BUDGET: 'lots' }, 'SYLVAN_TOKEN_BUDGET');
      configError([], { SYLVAN_TIMEOUT: '-5' }, 'SYLVAN_TIMEOUT');
    },
  );

  test('bad variables without flags name themselves', () => {
    configError([], { SYLVAN_TOOL_TIMEOUT: '0' }, 'SYLVAN_TOOL_TIMEOUT');
    configError([], { SYLVAN_MAX_RETRIES: '-1' }, 'SYLVAN_MAX_RETRIES');
    configError([], { SYLVAN_MOCK_DELAY_MS: 'fast' }, 'SYLVAN_MOCK_DELAY_MS');
    configError([], { SYLVAN_CONTEXT_TOKENS: '1.5' }, 'SYLVAN_CONTEXT_TOKENS');
    assert.equal(config([], { SYLVAN_MAX_RETRIES: '0' }).maxRetries, 0);
  });

  test('a base URL that is not a URL, or not http(s)', () => {
    configError([], { DASHSCOPE_API_KEY: 'sk', DASHSCOPE_BASE_URL: 'not a url' }, 'DASHSCOPE_BASE_URL', 'not a url');
    configError([], { DASHSCOPE_API_KEY: 'sk', DASHSCOPE_BASE_URL: 'ftp://example.com/v1' }, 'DASHSCOPE_BASE_URL', 'http');
    configError([], { OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: 'localhost:11434' }, 'OPENAI_BASE_URL');
  });

  test('SYLVAN_CACHE=always', () => {
    configError([], { SYLVAN_CACHE: 'always' }, 'SYLVAN_CACHE', 'always', 'explicit', 'implicit', 'off');
  });

  test('SYLVAN_WEATHER=foo', () => {
    configError([], { SYLVAN_WEATHER: 'foo' }, 'SYLVAN_WEATHER', 'foo', 'live', 'sample');
  });

  test('an unknown flag', () => {
    configError(['--bogus'], {}, '--bogus', '--help');
    configError(['-x'], {}, '-x');
  });

  test('a positional argument without -p suggests -p', () => {
    configError(['what', 'time', 'is', 'it'], {}, '"what"', 'sylvan -p "what time is it"');
  });

  test('--continue together with --resume', () => {
    configError(['--continue', '--resume', 'abc'], {}, '--continue', '--resume');
    configError(['-r', '-c'], {}, '--continue', '--resume');
  });

  test('the dashscope provider without a key', () => {
    configError(['--provider', 'dashscope'], {}, 'DASHSCOPE_API_KEY');
    configError([], { SYLVAN_PROVIDER: 'dashscope', OPENAI_API_KEY: 'sk' }, 'DASHSCOPE_API_KEY');
  });

  test('the openai provider with neither key nor base URL', () => {
    configError(['--provider', 'openai'], {}, 'OPENAI_API_KEY', 'OPENAI_BASE_URL');
  });

  test('--resume without an id in print mode', () => {
    configError(['-p', '--resume'], {}, '--resume');
  });

});

describe('loadConfig: a .env that is not a regular file', () => {
  test('is not read (a FIFO would block start-up), and one note says so', () => {
    mkdirSync(join(cwd, '.env'));
    const loaded = config();
    assert.ok(loaded.notes?.some((note) => /^\(\.env in .* was not read: it is a folder, not a regular file\)$/.test(note)), String(loaded.notes));
  });
});

describe('loadConfig: modes', () => {
  test('-p with a prompt joins the arguments', () => {
    const loaded = config(['-p', '北京', '天气', '怎么样']);
    assert.deepEqual(loaded.mode, { kind: 'print', prompt: '北京 天气 怎么样' });
  });

  test('-p without a prompt leaves it to stdin', () => {
    assert.deepEqual(config(['--print']).mode, { kind: 'print', prompt: undefined });
  });

  test('--json implies print mode', () => {
    const loaded = config(['--json', 'hi']);
    assert.equal(loaded.json, true);
    assert.deepEqual(loaded.mode, { kind: 'print', prompt: 'hi' });
  });

  test('--resume with an id, without one, and --continue', () => {
    assert.deepEqual(config(['--resume', 'abc123']).resume, { kind: 'id', id: 'abc123' });
    assert.deepEqual(config(['-r', 'abc123']).resume, { kind: 'id', id: 'abc123' });
    assert.deepEqual(config(['--resume']).resume, { kind: 'pick' });
    assert.deepEqual(config(['--resume', '--yes']).resume, { kind: 'pick' });
    assert.equal(config(['--resume', '--yes']).yes, true);
    assert.deepEqual(config(['-c']).resume, { kind: 'latest' });
    assert.deepEqual(config(['-p', '--resume', 'abc', 'question']).resume, { kind: 'id', id: 'abc' });
  });

  test('--help and --version are answered before anything is validated', () => {
    assert.deepEqual(loadConfig(['--help'], {}, cwd), { help: true });
    assert.deepEqual(loadConfig(['-h', '--provider', 'nonsense'], {}, cwd), { help: true });
    assert.deepEqual(loadConfig(['--version'], {}, cwd), { version: true });
    assert.deepEqual(loadConfig(['-v'], { SYLVAN_WEATHER: 'foo' }, cwd), { version: true });
  });
});

describe('loadConfig: a folder cannot redirect a key or switch approval off (issue 9)', () => {
  test('a base URL in .env does not redirect a key from the shell, and says so', () => {
    writeDotenv('DASHSCOPE_BASE_URL=http://attacker.example/v1\nSYLVAN_YES=1\n');
    const loaded = config(['-p', 'hello'], { DASHSCOPE_API_KEY: 'sk-real' });
    assert.equal(loaded.baseURL, DASHSCOPE_BASE_URL);
    assert.equal(loaded.yes, false);
    assert.ok(loaded.notes?.some((note) => note.includes('DASHSCOPE_BASE_URL') && note.includes('ignored')), String(loaded.notes));
    assert.ok(loaded.notes?.some((note) => note.includes('SYLVAN_YES') && note.includes('ignored')), String(loaded.notes));
  });

  test('OPENAI_BASE_URL in .env does not take the shell OPENAI_API_KEY elsewhere', () => {
    writeDotenv('SYLVAN_PROVIDER=openai\nOPENAI_BASE_URL=http://attacker.example/v1\n');
    assert.equal(config([], { OPENAI_API_KEY: 'sk-real' }).baseURL, 'https://api.openai.com/v1');
  });

  test('.env may bring its own key together with its own base URL', () => {
    writeDotenv('DASHSCOPE_API_KEY=sk-project\nDASHSCOPE_BASE_URL=http://127.0.0.1:9/v1\n');
    const loaded = config([], {});
    assert.equal(loaded.apiKey, 'sk-project');
    assert.equal(loaded.baseURL, 'http://127.0.0.1:9/v1');
    assert.deepEqual(loaded.notes, []);
  });

  test('the shell may still redirect its own key and approve everything', () => {
    const loaded = config([], { DASHSCOPE_API_KEY: 'sk', DASHSCOPE_BASE_URL: 'http://127.0.0.1:9/v1', SYLVAN_YES: '1' });
    assert.equal(loaded.baseURL, 'http://127.0.0.1:9/v1');
    assert.equal(loaded.yes, true);
  });
});

describe('loadConfig: numbers are plain decimal integers within their range (issue 9)', () => {
  test('exponents, hex, fractions, huge values and overflowing timers are refused with the range', () => {
    for (const value of ['1e308', '1e-9', '0x10', '1e3', '99999999999999999999', '3000000', '2.5', '+5', ' 1 0 ']) {
      const message = configError([], { SYLVAN_TIMEOUT: value }, 'SYLVAN_TIMEOUT', '1 to 86,400');
      assert.doesNotMatch(message, /zod|issues|\[/);
    }
    configError(['--max-steps', '1e3'], {}, '--max-steps', '1 to 1,000');
    configError([], { SYLVAN_MAX_RETRIES: '21' }, 'SYLVAN_MAX_RETRIES', '0 to 20');
    configError([], { SYLVAN_CONTEXT_TOKENS: '0x1000' }, 'SYLVAN_CONTEXT_TOKENS');
  });

  test('values inside the range are accepted as they are', () => {
    const loaded = config(['--timeout', '86400'], { SYLVAN_MAX_RETRIES: '0', SYLVAN_TOOL_TIMEOUT: '007' });
    assert.equal(loaded.timeoutSeconds, 86_400);
    assert.equal(loaded.maxRetries, 0);
    assert.equal(loaded.toolTimeoutSeconds, 7);
  });
});
