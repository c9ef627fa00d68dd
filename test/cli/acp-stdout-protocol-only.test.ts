import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerText, startAcpClient, type AcpClient } from '../helpers/acp-client.ts';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { httpError, startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { TEST_SERVER } from '../mcp/mcp-helpers.ts';

// An editor reads Sylvan's stdout as the protocol: one stray line (a log, a warning, a server's
// output, a stack trace) breaks the connection. Whatever fails, stdout holds JSON-RPC messages only.

/** Fails unless every line Sylvan wrote to stdout is one JSON-RPC 2.0 message. */
function assertOnlyProtocol(acp: AcpClient): void {
  const lines = acp.stdoutLines();
  assert.ok(lines.length > 0, 'nothing on stdout');
  for (const line of lines) {
    let message: { jsonrpc?: unknown; method?: unknown; id?: unknown };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      assert.fail(`a line on stdout is not JSON: ${line.slice(0, 200)}`);
    }
    assert.equal(message.jsonrpc, '2.0', `not a JSON-RPC message: ${line.slice(0, 200)}`);
    assert.ok(typeof message.method === 'string' || 'id' in message, `neither a request, a notification nor a response: ${line.slice(0, 200)}`);
  }
}

const prompt = (acp: AcpClient, sessionId: string) => acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });

describe('stdout of sylvan --acp carries protocol messages only', { timeout: 90_000 }, () => {
  test('a key the server refuses: the prompt fails with one line naming the variable', async (context) => {
    const server = closeAtEnd(await startDashScopeServer({ replies: [text('never')], apiKey: 'the-right-key' }));
    const acp = await startAcpClient({ env: dashscopeEnv(server, { DASHSCOPE_API_KEY: 'sk-wrong-key-1234', SYLVAN_MAX_RETRIES: '0' }) });
    context.after(() => acp.close());
    const { sessionId } = await acp.agent.request('session/new', { cwd: acp.cwd, mcpServers: [] });
    await assert.rejects(prompt(acp, sessionId), (error: Error) => /DASHSCOPE_API_KEY/.test(error.message) && !error.message.includes('sk-wrong-key-1234'));
    assertOnlyProtocol(acp);
    assert.doesNotMatch(acp.stdoutLines().join('\n'), /sk-wrong-key-1234/);
  });

  test('a missing key: initialize offers to authenticate, naming the variable, and session/new asks for it', async (context) => {
    const acp = await startAcpClient({ env: { SYLVAN_PROVIDER: 'dashscope' } });
    context.after(() => acp.close());
    assert.deepEqual(acp.initialized.authMethods?.map((method) => method.name), ['Set DASHSCOPE_API_KEY']);
    await assert.rejects(acp.agent.request('session/new', { cwd: acp.cwd, mcpServers: [] }), (error: Error & { code?: number }) => error.code === -32000 && /DASHSCOPE_API_KEY/.test(error.message));
    assertOnlyProtocol(acp);
  });

  test('a key the model quotes, in its answer or a call, reaches the editor scrubbed, even streamed in pieces', async (context) => {
    const key = 'sk-acp-quoted-key-7f3e9a';
    const server = closeAtEnd(
      await startDashScopeServer({
        replies: [toolCalls([{ id: 'call_k', name: 'run_command', arguments: { command: `echo ${key}` } }]), text(`Your key is ${key}, keep it safe.`, { chunkSize: 3 })],
      }),
    );
    const acp = await startAcpClient({ env: dashscopeEnv(server, { DASHSCOPE_API_KEY: key, SYLVAN_MAX_RETRIES: '0' }) });
    context.after(() => acp.close());
    const { sessionId } = await acp.agent.request('session/new', { cwd: acp.cwd, mcpServers: [] });
    await prompt(acp, sessionId);
    assert.equal(acp.permissions.length, 1);
    assert.match(answerText(acp.updates, sessionId), /Your key is \[redacted\], keep it safe\./);
    assert.doesNotMatch(acp.stdoutLines().join('\n'), new RegExp(key.slice(3)));
    assertOnlyProtocol(acp);
  });

  test('a server error: the prompt fails, the session goes on', async (context) => {
    const server = closeAtEnd(await startDashScopeServer({ replies: [httpError(500), text('Back again.')] }));
    const acp = await startAcpClient({ env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }) });
    context.after(() => acp.close());
    const { sessionId } = await acp.agent.request('session/new', { cwd: acp.cwd, mcpServers: [] });
    await assert.rejects(prompt(acp, sessionId), /server/i);
    assert.equal((await prompt(acp, sessionId)).stopReason, 'end_turn');
    assert.equal(answerText(acp.updates, sessionId), 'Back again.');
    assertOnlyProtocol(acp);
  });

  test("a tool that crashes (the editor's MCP server killed mid-call, one that writes garbage): the turn goes on", async (context) => {
    const server = closeAtEnd(
      await startDashScopeServer({
        replies: [toolCalls([{ id: 'call_die', name: 'probe__die', arguments: {} }]), toolCalls([{ id: 'call_garble', name: 'other__garble', arguments: {} }]), text('Both tools failed.')],
      }),
    );
    const acp = await startAcpClient({ env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0', }), answer: () => 'allow_once' });
    context.after(() => acp.close());
    const node = { command: process.execPath, args: [TEST_SERVER], env: [] };
    const { sessionId } = await acp.agent.request('session/new', { cwd: acp.cwd, mcpServers: [{ name: 'probe', ...node }, { name: 'other', ...node }] });
    assert.equal((await prompt(acp, sessionId)).stopReason, 'end_turn');
    assert.equal(acp.permissions.length, 2, "the editor's servers' tools ask first, as the user's own do");
    assert.match(toolResultText(requestAt(server, 1), 'call_die'), /MCP server probe stopped during the call/);
    assert.match(toolResultText(requestAt(server, 2), 'call_garble'), /MCP server other stopped during the call/);
    assertOnlyProtocol(acp);
    assert.doesNotMatch(acp.stdoutLines().join('\n'), /this is not JSON-RPC/);
  });
});
