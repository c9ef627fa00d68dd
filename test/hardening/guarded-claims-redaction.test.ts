import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { AgentEvent } from '../../src/agent/events.ts';
import { redactEvent } from '../../src/agent/redact-secrets.ts';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { cliAgainstServer } from '../helpers/cli-against-server.ts';
import { httpError, startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { tempWorkspace } from '../helpers/start-cli.ts';
import { startTerminal } from '../helpers/terminal.ts';

// Issue 19 §1, redaction: *_TOKEN values are scrubbed from error text and sessions like the API
// key; the reason a call was denied reaches the model, and is redacted like everything else;
// --json carries a stack trace only with SYLVAN_DEBUG=1.

const KEY = 'sk-claims-redaction-5d20';
const TOKEN = 'ghp_claimsRedactionToken0f9e8d7c';
const echoing = () => httpError(401, { body: { error: { message: `Bad credentials: ${TOKEN} was refused.`, code: 'invalid_api_key' } } });
// The model quotes the token in a tool call (a tool error saves it), then the server's error echoes it.
const quoting = () => [toolCalls([{ id: 'call_t', name: 'calculate', arguments: { expression: `${TOKEN} + 1` } }]), echoing()];
const env = { GITHUB_TOKEN: TOKEN };
const plain = cliAgainstServer({ replies: quoting() }, { key: KEY, args: ['-p', 'hi'], env });
const json = cliAgainstServer({ replies: [echoing()] }, { key: KEY, args: ['-p', '--json', 'hi'], env });
const jsonDebug = cliAgainstServer({ replies: [echoing()] }, { key: KEY, args: ['-p', '--json', 'hi'], env: { ...env, SYLVAN_DEBUG: '1' } });
const write = () => toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'changed\n' } }]);
const deniedInPrint = cliAgainstServer({ replies: [write(), text('OK, not written.')] }, { key: KEY, args: ['-p', 'write notes'] });

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

describe('the reason a call was denied', { timeout: 60_000 }, () => {
  test('reaches the model as the tool result: nobody to ask in print mode', async () => {
    const { result, server } = await deniedInPrint;
    assert.equal(result.code, 0, result.stderr);
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /running non-interactively without --yes, so it was not run/);
  });

  test('reaches the model as the tool result: the user answered n in a terminal', async (context) => {
    const server = closeAtEnd(await startDashScopeServer({ replies: [write(), text('OK, not written.')] }));
    const terminal = await startTerminal({ cwd: tempWorkspace(), env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }) });
    context.after(() => terminal.close());
    await terminal.expect(/› /, 'the first prompt');
    // A terminal asks with the one-key menu: `n` alone answers.
    const asked = terminal.expect(/No, and tell it why/, 'the approval menu');
    terminal.type('write notes\r');
    await asked;
    const answered = terminal.expect(/OK, not written\./, "the model's answer after the denial");
    terminal.type('n');
    await answered;
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /The user said no to this call; nothing was changed/);
  });

  test('is redacted on its way to the screen like every other text', () => {
    const denied: AgentEvent = { type: 'tool-denied', toolCallId: 'c1', toolName: 'run_command', reason: `refused: it would print ${TOKEN}` };
    assert.deepEqual(redactEvent(denied, [TOKEN]), { ...denied, reason: 'refused: it would print [redacted]' });
  });
});
