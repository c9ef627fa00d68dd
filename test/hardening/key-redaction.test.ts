import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { redactSecrets } from '../../src/shared/redact-secrets.ts';
import { runCli } from '../helpers/cli.ts';
import { httpError, text, toolCalls } from '../helpers/dashscope-server.ts';

const KEY = 'sk-hardening-redact-7c41e2';
const echoing = () => httpError(401, { body: { error: { message: `Incorrect API key provided: ${KEY}. Check it.`, code: 'invalid_api_key' } } });
const plain = runCli({ inProcess: true, server: { replies: [echoing()] }, key: KEY, args: ['-p', 'hi'], env: { SYLVAN_DEBUG: '1' } });
const json = runCli({ inProcess: true, server: { replies: [echoing()] }, key: KEY, args: ['-p', '--json', 'hi'] });
const jsonDebug = runCli({ inProcess: true, server: { replies: [echoing()] }, key: KEY, args: ['-p', '--json', 'hi'], env: { SYLVAN_DEBUG: '1' } });
const newline = runCli({ inProcess: true, server: { replies: [text('never')] }, key: KEY, args: ['-p', '--json', 'hi'], env: { DASHSCOPE_API_KEY: `${KEY}\nsecond-line-of-key-99` } });
// A tool error quoting the key (here: the model passes it as an expression) is saved without it.
const toolError = runCli({ inProcess: true, server: { replies: [toolCalls([{ id: 'call_k', name: 'calculate', arguments: { expression: `${KEY} + 1` } }]), text('ok')] }, key: KEY, args: ['-p', 'hi'] });

function sessionText(cwd: string): string {
  const folder = join(cwd, '.sylvan-home', 'sessions');
  return readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8')).join('\n');
}

describe('the key never appears in output (issue 9, item 10)', { timeout: 60_000 }, () => {
  test('redactSecrets replaces the key, each of its lines, and its JSON-escaped form', () => {
    assert.equal(redactSecrets(`a ${KEY} b`, [KEY]), 'a [redacted] b');
    assert.equal(redactSecrets('header "Bearer sk-line-one-123\\nsk-line-two-456"', ['sk-line-one-123\nsk-line-two-456']), 'header "Bearer [redacted]"');
    assert.equal(redactSecrets('short key abc', ['abc']), 'short key abc');
  });

  test('a 401 body echoing the key is scrubbed from the error line and the debug stack', async () => {
    const { result } = await plain;
    assert.equal(result.code, 1);
    assert.ok(!result.stdout.includes(KEY) && !result.stderr.includes(KEY), result.stderr);
    assert.match(result.stderr, /401|key/i);
  });

  test('--json carries no key, and no debug stack without SYLVAN_DEBUG=1', async () => {
    const { result } = await json;
    assert.ok(!result.stdout.includes(KEY) && !result.stderr.includes(KEY), result.stdout);
    const end = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; debug?: string }).find((event) => event.type === 'turn-end');
    assert.ok(end, result.stdout);
    assert.equal(end.debug, undefined);
    const debugged = (await jsonDebug).result;
    assert.ok(!debugged.stdout.includes(KEY), debugged.stdout);
  });

  test('a key with a newline is scrubbed from Node\'s header error, line by line', async () => {
    const { result } = await newline;
    assert.equal(result.code, 1, result.stdout);
    for (const piece of [KEY, 'second-line-of-key-99']) assert.ok(!result.stdout.includes(piece) && !result.stderr.includes(piece), result.stdout + result.stderr);
  });

  test('the session transcript holds no key, even where a tool error quoted it', async () => {
    const { result, cwd, server } = await toolError;
    assert.equal(result.code, 0, result.stderr);
    assert.ok(server.requests.length === 2);
    const saved = sessionText(cwd);
    assert.match(saved, /call_k/);
    assert.ok(!saved.includes(KEY), 'the key was saved');
  });
});
