import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { httpError, text, toolCalls } from '../helpers/dashscope-server.ts';

// A *_TOKEN value from the environment is a secret like the API key: scrubbed from error text and
// from sessions; --json carries a stack trace only with SYLVAN_DEBUG=1.

const KEY = 'sk-claims-redaction-5d20';
const TOKEN = 'ghp_claimsRedactionToken0f9e8d7c';
const echoing = () => httpError(401, { body: { error: { message: `Bad credentials: ${TOKEN} was refused.`, code: 'invalid_api_key' } } });
// The model quotes the token in a tool call (a tool error saves it), then the server's error echoes it.
const quoting = () => [toolCalls([{ id: 'call_t', name: 'calculate', arguments: { expression: `${TOKEN} + 1` } }]), echoing()];
const env = { GITHUB_TOKEN: TOKEN };
const plain = runCli({ inProcess: true, server: { replies: quoting() }, key: KEY, args: ['-p', 'hi'], env });
const json = runCli({ inProcess: true, server: { replies: [echoing()] }, key: KEY, args: ['-p', '--json', 'hi'], env });
const jsonDebug = runCli({ inProcess: true, server: { replies: [echoing()] }, key: KEY, args: ['-p', '--json', 'hi'], env: { ...env, SYLVAN_DEBUG: '1' } });

const sessionText = (cwd: string): string => {
  const folder = join(cwd, '.sylvan-home', 'sessions');
  return readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8')).join('\n');
};
const turnEnd = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; message?: string; debug?: string })
    .find((event) => event.type === 'turn-end');

describe('a *_TOKEN from the environment is a secret like the key', { timeout: 60_000 }, () => {
  test('scrubbed from the error line and from the session, where a tool error quoted it', async () => {
    const { result, cwd, server } = await plain;
    assert.equal(result.code, 1, result.stderr);
    assert.equal(server.requests.length, 2);
    assert.match(result.stderr, /Bad credentials: \[redacted\] was refused/, 'the error line is shown, the token replaced');
    assert.ok(!result.stderr.includes(TOKEN), result.stderr);
    assert.ok(!result.stdout.includes(TOKEN), result.stdout);
    assert.match(result.stderr, /calculate\(expression: "\[redacted\] \+ 1"\)/, 'the call as shown, the token replaced');
    assert.match(result.stderr, /Unknown name "\[redacted\]"/, 'the tool error as shown');
    const saved = sessionText(cwd);
    assert.match(saved, /call_t/, 'the tool call was saved');
    assert.ok(!saved.includes(TOKEN), 'the token was saved in the session');
  });

  test('--json: no token, and the stack trace only with SYLVAN_DEBUG=1', async () => {
    const [quiet, debugged] = [(await json).result, (await jsonDebug).result];
    for (const result of [quiet, debugged]) assert.ok(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN), result.stdout);
    const quietEnd = turnEnd(quiet.stdout);
    const debuggedEnd = turnEnd(debugged.stdout);
    assert.match(quietEnd?.message ?? '', /\[redacted\]/);
    assert.equal(quietEnd?.debug, undefined, 'a stack without SYLVAN_DEBUG');
    assert.match(debuggedEnd?.debug ?? '', /\n\s+at /, 'SYLVAN_DEBUG=1 carries the stack');
  });
});

describe('a key the model quotes in its answer, streamed five characters at a time', { timeout: 60_000 }, () => {
  const answer = () => text(`The key you use is ${KEY}, as asked.`, { chunkSize: 5 });
  test('reaches neither the printed answer, the piped REPL nor --json\'s deltas: each shows [redacted]', async () => {
    const runs = await Promise.all([
      runCli({ inProcess: true, server: { respond: answer }, key: KEY, args: ['-p', 'hi'] }),
      runCli({ inProcess: true, server: { respond: answer }, key: KEY, stdin: 'hi\n' }),
      runCli({ inProcess: true, server: { respond: answer }, key: KEY, args: ['-p', '--json', 'hi'] }),
    ]);
    const [printed, piped, json] = runs.map((run) => run.result);
    for (const result of [printed!, piped!]) {
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /The key you use is \[redacted\], as asked\./);
      assert.ok(!result.stdout.includes(KEY.slice(0, 12)) && !result.stderr.includes(KEY.slice(0, 12)), result.stdout);
    }
    const deltas = json!.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; text?: string })
      .filter((event) => event.type === 'text-delta');
    assert.ok(deltas.length > 1, 'the answer still streams in pieces');
    assert.equal(deltas.map((event) => event.text).join(''), 'The key you use is [redacted], as asked.');
  });
});
