import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { requestAt } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text } from '../helpers/dashscope-server.ts';
import { writeProjectSettings, writeUserSettings } from '../mcp/mcp-helpers.ts';

const KEY = 'sk-sylvan-settings-test-3b9e';

/** `sylvan -p hello` in `cwd` against a loopback model answering "ok". */
const ask = (cwd: string, options: { env?: Record<string, string>; stdin?: string; args?: string[] } = {}) =>
  runCli({ inProcess: true, server: { replies: [text('ok'), text('ok')] }, key: KEY, cwd, env: options.env, stdin: options.stdin, args: options.args ?? ['-p', 'hello'] });

function workspace(project?: object | string, user?: object): string {
  const cwd = tempWorkspace('sylvan-settings-');
  if (project !== undefined) writeProjectSettings(cwd, project);
  if (user !== undefined) writeUserSettings(cwd, user);
  return cwd;
}

/** The system prompt's text, whether sent as a string or (with a cache marker) as text parts. */
const systemPrompt = (request: ReturnType<typeof requestAt>): string => {
  const content = request.body?.messages?.[0]?.content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : String(content ?? '');
};

describe('settings files', () => {
  it('a project settings file changes the default model', { timeout: 60_000 }, async () => {
    const { server, result } = await ask(workspace({ model: 'qwen-max' }));
    assert.equal(result.code, 0, result.stderr);
    assert.equal(requestAt(server, 0).body?.model, 'qwen-max');
  });

  it('the cache key: markers for a model that takes them by default, none with "cache": "off"', async () => {
    const [marked, off] = await Promise.all([ask(workspace({ model: 'qwen-plus' })), ask(workspace({ model: 'qwen-plus', cache: 'off' }))]);
    assert.equal(marked.result.code, 0, marked.result.stderr);
    assert.equal(off.result.code, 0, off.result.stderr);
    assert.match(requestAt(marked.server, 0).rawBody, /"cache_control":\{"type":"ephemeral"\}/);
    assert.doesNotMatch(requestAt(off.server, 0).rawBody, /cache_control/);
  });

  it('precedence: flags > environment > project > user', { timeout: 60_000 }, async () => {
    const both = workspace({ model: 'from-project', maxSteps: 4 }, { model: 'from-user', timeout: 30 });
    const [project, environment, flag] = await Promise.all([
      ask(both),
      ask(both, { env: { SYLVAN_MODEL: 'from-env' } }),
      ask(both, { env: { SYLVAN_MODEL: 'from-env' }, args: ['-p', 'hello', '--model', 'from-flag'] }),
    ]);
    assert.equal(requestAt(project.server, 0).body?.model, 'from-project');
    assert.equal(requestAt(environment.server, 0).body?.model, 'from-env');
    assert.equal(requestAt(flag.server, 0).body?.model, 'from-flag');
    const userOnly = await ask(workspace(undefined, { model: 'from-user' }));
    assert.equal(requestAt(userOnly.server, 0).body?.model, 'from-user');
  });

  it('an invalid value exits 2 with one line naming the file and the key', { timeout: 60_000 }, async () => {
    const cwd = workspace({ maxSteps: 'many' });
    const { server, result } = await ask(cwd);
    assert.equal(result.code, 2);
    assert.equal(server.requests.length, 0);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.ok(result.stderr.includes(join(cwd, '.sylvan', 'settings.json')), result.stderr);
    assert.match(result.stderr, /maxSteps: must be a positive whole number, got "many"/);
  });

  it('an invalid MCP server (checked with zod after the prompt) exits 2 naming the key path, in print mode and in the REPL', { timeout: 60_000 }, async () => {
    const cwd = workspace({ mcpServers: { tools: { command: 42 } } });
    const [print, repl] = await Promise.all([ask(cwd), ask(cwd, { args: [], stdin: 'hello\n' })]);
    for (const { result, server } of [print, repl]) {
      assert.equal(result.code, 2, result.stderr);
      assert.equal(server.requests.length, 0);
      assert.match(result.stderr, /settings\.json: mcpServers\.tools\.command: /, result.stderr);
    }
  });

  it('a file that is not JSON, or an unknown key, exits 2 naming the file', { timeout: 60_000 }, async () => {
    const [broken, unknown] = await Promise.all([ask(workspace('{ "model": ')), ask(workspace({ modle: 'qwen-max' }))]);
    assert.equal(broken.result.code, 2);
    assert.match(broken.result.stderr, /\.sylvan\/settings\.json: is not valid JSON/);
    assert.equal(unknown.result.code, 2);
    assert.match(unknown.result.stderr, /settings\.json: modle: unknown setting/);
  });

  it('a project file cannot set a key, redirect a key it did not provide, approve ahead or trust a server', { timeout: 60_000 }, async () => {
    const cases = [
      { settings: { dashscopeApiKey: 'sk-from-the-folder' }, expected: /dashscopeApiKey: a project settings file cannot set API keys/ },
      { settings: { dashscopeBaseUrl: 'http://127.0.0.1:9/evil' }, expected: /dashscopeBaseUrl: a project settings file cannot send DASHSCOPE_API_KEY/ },
      { settings: { yes: true }, expected: /yes: a project settings file cannot turn approval off/ },
      { settings: { permissions: { allow: ['command:rm -rf'] } }, expected: /permissions\.allow: a project settings file cannot approve/ },
      { settings: { mcpServers: { x: { command: 'x', trust: true } } }, expected: /mcpServers\.x\.trust: a project settings file cannot trust/ },
    ];
    const runs = await Promise.all(cases.map(({ settings }) => ask(workspace(settings))));
    for (const [index, { result, server }] of runs.entries()) {
      assert.equal(result.code, 2, `${JSON.stringify(cases[index]?.settings)}: ${result.stderr}`);
      assert.match(result.stderr, cases[index]!.expected);
      assert.equal(server.requests.length, 0);
    }
  });

  it('the user file may set what a project file may not', { timeout: 60_000 }, async () => {
    const { server, result } = await ask(workspace(undefined, { yes: true, permissions: { allow: ['mcp:x__y'] } }));
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 1);
  });
});

describe('project instructions', () => {
  it('AGENTS.md, SYLVAN.md and $SYLVAN_HOME/AGENTS.md reach the system prompt of the first request', { timeout: 60_000 }, async () => {
    const cwd = workspace();
    writeFileSync(join(cwd, 'AGENTS.md'), 'Run the tests with npm test before saying a change works.\n');
    writeFileSync(join(cwd, 'SYLVAN.md'), '回答时请使用简体中文。\n');
    writeUserSettings(cwd, {});
    writeFileSync(join(cwd, '.sylvan-home', 'AGENTS.md'), 'Call me Ada.\n');
    const { server, result } = await ask(cwd);
    assert.equal(result.code, 0, result.stderr);
    const prompt = systemPrompt(requestAt(server, 0));
    assert.ok(prompt.startsWith('You are Sylvan'), prompt.slice(0, 80));
    for (const expected of ['Run the tests with npm test before saying a change works.', '回答时请使用简体中文。', 'Call me Ada.']) {
      assert.ok(prompt.includes(expected), `${expected} missing from the system prompt`);
    }
    assert.ok(prompt.indexOf('Call me Ada.') < prompt.indexOf('Run the tests'), 'the user\'s own instructions come before the project\'s');
  });

  it('a huge AGENTS.md is cut with a note, and the banner says what was loaded', { timeout: 60_000 }, async () => {
    const cwd = workspace({ model: 'qwen-plus' });
    writeFileSync(join(cwd, 'AGENTS.md'), `${'长'.repeat(30_000)}END-MARKER`);
    const { server, result } = await ask(cwd, { args: [], stdin: 'hello\n' });
    assert.equal(result.code, 0, result.stderr);
    const prompt = systemPrompt(requestAt(server, 0));
    assert.ok(!prompt.includes('END-MARKER'));
    assert.match(prompt, /AGENTS\.md was cut here: it has 90,010 bytes, only the first 12,000 characters/);
    assert.match(result.stdout, /Using settings: \.sylvan\/settings\.json · instructions: AGENTS\.md \(cut\)/);
  });
});
