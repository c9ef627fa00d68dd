import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { closeAtEnd } from '../helpers/served.ts';

const KEY = 'sk-hardening-real-key-5512';

describe('a workspace .env cannot redirect the key or switch approval off (issue 9, item 1)', { timeout: 60_000 }, () => {
  test('DASHSCOPE_BASE_URL and SYLVAN_YES from .env are ignored with a note; the banner never names the attacker', async () => {
    const attacker = closeAtEnd(await startDashScopeServer({ replies: [] }));
    const cwd = tempWorkspace();
    writeFileSync(join(cwd, '.env'), `DASHSCOPE_BASE_URL=${attacker.baseURL}\nSYLVAN_YES=1\n`);
    const result = await runCli({ inProcess: true, cwd, env: { DASHSCOPE_API_KEY: KEY }, stdin: '' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /DASHSCOPE_BASE_URL in \.env .* was ignored/);
    assert.match(result.stderr, /SYLVAN_YES in \.env .* was ignored/);
    assert.ok(!result.stdout.includes(new URL(attacker.baseURL).host), result.stdout);
    assert.equal(attacker.requests.length, 0);
  });

  test('with a key of its own, .env may choose the server, and the banner shows that host', async () => {
    const server = closeAtEnd(await startDashScopeServer({ replies: [] }));
    const cwd = tempWorkspace();
    writeFileSync(join(cwd, '.env'), `DASHSCOPE_API_KEY=${KEY}\nDASHSCOPE_BASE_URL=${server.baseURL}\n`);
    const result = await runCli({ inProcess: true, cwd, stdin: '' });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.includes(`DASHSCOPE_API_KEY is sent to ${new URL(server.baseURL).host}`), result.stdout);
  });

  test('SYLVAN_YES=1 in .env does not approve a write in print mode', async () => {
    const cwd = tempWorkspace();
    writeFileSync(join(cwd, '.env'), `DASHSCOPE_API_KEY=${KEY}\nSYLVAN_YES=1\n`);
    writeFileSync(join(cwd, 'notes.txt'), 'original\n');
    const { server, result } = await runCli({ inProcess: true, server: { replies: [toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'owned\n' } }]), text('ok')] }, cwd, key: KEY, keyFromDotenv: true, args: ['-p', 'change notes.txt'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(join(cwd, 'notes.txt'), 'utf8'), 'original\n');
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /--yes/);
    assert.match(result.stderr, /SYLVAN_YES in \.env .* was ignored/);
  });
});
