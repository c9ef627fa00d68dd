import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls, type Reply, type Responder } from '../helpers/dashscope-server.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, processesIn, serverPid, TEST_SERVER, writeUserSettings } from './mcp-helpers.ts';

// Issue 22, failures 4 and 7: one oversized MCP message ended the session with a stack trace
// (exit 1), and a server's 10,011 tools (3.5 MB) went into every request, unbounded.
// What is sent, shown and left running is the subject, so Sylvan runs in this process
// (`runCli({ inProcess: true })`); the MCP servers are real processes.

const KEY = 'sk-sylvan-mcp-bounds-91f3';
const toolNamesOf = (server: { requests: { body?: { tools?: Array<{ function: { name: string } }> } }[] }, index: number) =>
  (server.requests[index]?.body?.tools ?? []).map((tool) => tool.function.name);
const linesAbout = (stderr: string, server: string) => stderr.split('\n').filter((line) => line.startsWith(`(MCP server ${server} `));
const noStackTrace = (stderr: string) => {
  assert.ok(!/^\s+at /m.test(stderr), `a stack trace on stderr:\n${stderr.slice(0, 2000)}`);
  assert.ok(!stderr.includes('ReadBuffer'), stderr.slice(0, 2000));
};

function workspaceWith(server: Record<string, unknown>): string {
  const cwd = tempWorkspace('sylvan-mcp-bounds-');
  writeUserSettings(cwd, { mcpServers: { probe: { command: process.execPath, args: [TEST_SERVER], trust: true, ...server } } });
  return cwd;
}

const run = (cwd: string, replies: Reply[], options: { args?: string[]; stdin?: string } = {}) =>
  runCli({ inProcess: true, server: { replies }, key: KEY, cwd, args: options.args ?? ['-p', '用工具'], stdin: options.stdin, killAfterMs: 60_000 });

describe('list_mcp_resources', { timeout: 120_000 }, () => {
  it("200 resources with long URIs: the model reads the list cut at the MCP result bound, and is told it was cut", async () => {
    const cwd = workspaceWith({ env: { MANY_RESOURCES: '200' } });
    const { server, result } = await run(cwd, [toolCalls([{ id: 'call_list', name: 'list_mcp_resources', arguments: {} }]), text('好。')]);
    assert.equal(result.code, 0, result.stderr.slice(0, 2000));
    const listed = toolResultText(requestAt(server, 1), 'call_list');
    assert.match(listed, /^probe: 200 resources\n  test:\/\/resources\/1\//);
    assert.match(listed, /\[… cut: the result had [\d,]+ characters, only the first 8,000 are shown\]$/);
    assert.ok(listed.length < 8_200, `${listed.length} characters`);
  });
});

describe('an oversized MCP message drops that server with one line (failure 4)', { timeout: 120_000 }, () => {
  it('11 MB without a newline at start-up: the server is dropped, the question is answered, exit 0', async () => {
    const cwd = workspaceWith({ env: { FLOOD_AT_START: String(11 * 1024 * 1024) } });
    const { server, result } = await run(cwd, [text('没有那个服务器也能回答。')]);
    assert.equal(result.code, 0, result.stderr.slice(0, 2000));
    noStackTrace(result.stderr);
    assert.ok(result.stdout.includes('没有那个服务器也能回答。'));
    const lines = linesAbout(result.stderr, 'probe');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] ?? '', /probe failed: it sent a message larger than 10 MB/);
    assert.ok(!toolNamesOf(server, 0).some((name) => name.startsWith('probe__')));
    await eventually(() => processesIn(cwd).length === 0, 'the flooding server was ended');
  });

  it('in the REPL, the flooding server costs one line and the next question is asked as usual', async () => {
    const cwd = workspaceWith({ env: { FLOOD_AT_START: String(11 * 1024 * 1024), PID_FILE: 'server.pid' } });
    const pidFile = join(cwd, 'server.pid');
    // The first answer waits until the server is gone, so its line is due at the end of the first turn.
    const respond: Responder = async (_request, index) => {
      if (index > 0) return text('第二个回答。');
      await eventually(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 'the server started', 30_000);
      await eventually(() => serverPid(pidFile) === 0, 'the flooding server was ended', 30_000);
      return text('第一个回答。');
    };
    const { server, result } = await runCli({ inProcess: true, server: { respond }, key: KEY, cwd, args: [], stdin: '问题一\n问题二\n', killAfterMs: 60_000 });
    assert.equal(result.code, 0, result.stderr.slice(0, 2000));
    noStackTrace(result.stderr);
    assert.equal(server.requests.length, 2);
    assert.ok(result.stdout.includes('第一个回答。') && result.stdout.includes('第二个回答。'), result.stdout.slice(-2000));
    const lines = linesAbout(result.stdout, 'probe');
    assert.equal(lines.length, 1, result.stdout.slice(-2000));
    assert.match(lines[0] ?? '', /larger than 10 MB/);
  });

  it('a 50 MB tool result: the call fails, the server is dropped with one line, and the turn goes on', async () => {
    const cwd = workspaceWith({});
    const { server, result } = await run(cwd, [
      toolCalls([{ id: 'call_huge', name: 'probe__huge', arguments: {} }]),
      toolCalls([{ id: 'call_again', name: 'probe__huge', arguments: {} }]),
      text('那个工具的结果太大了。'),
    ]);
    assert.equal(result.code, 0, result.stderr.slice(0, 2000));
    noStackTrace(result.stderr);
    assert.match(toolResultText(requestAt(server, 1), 'call_huge'), /stopped during the call/);
    // The next step is asked as usual; a call to the dropped server's tool is answered, not crashed on.
    assert.match(toolResultText(requestAt(server, 2), 'call_again'), /not running any more|not available|unknown|no such tool/i);
    assert.ok(result.stdout.includes('那个工具的结果太大了。'));
    const lines = linesAbout(result.stderr, 'probe');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] ?? '', /probe failed: it sent a message larger than 10 MB/);
    await eventually(() => processesIn(cwd).length === 0, 'the server was ended');
  });
});

describe("a server's tool list is bounded (failure 7)", { timeout: 120_000 }, () => {
  it('10,011 tools: the first 100 are offered, with one line naming the server and the keys that raise the bound', async () => {
    // The fixture has four tools of its own: 10,007 more make 10,011.
    const cwd = workspaceWith({ env: { MANY_TOOLS: '10007' } });
    const { server, result } = await run(cwd, [text('好。')]);
    assert.equal(result.code, 0, result.stderr.slice(0, 2000));
    const offered = toolNamesOf(server, 0).filter((name) => name.startsWith('probe__'));
    assert.ok(offered.length > 0 && offered.length <= 100, `${offered.length} offered`);
    assert.ok(JSON.stringify(requestAt(server, 0).body?.tools).length < 200_000);
    const lines = linesAbout(result.stderr, 'probe');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] ?? '', /MCP server probe offers 10,011 tools .*only the first \d+ .*"maxTools" and "maxToolSchemaBytes"/);
  });

  it('404 tools with the count bound raised: only the definitions that fit the default 100 kB together are offered', async () => {
    // Each definition (~370 bytes) fits by itself; all of them (~150 kB) do not.
    const cwd = workspaceWith({ env: { MANY_TOOLS: '400' }, maxTools: 1_000 });
    const { server, result } = await run(cwd, [text('好。')]);
    assert.equal(result.code, 0, result.stderr.slice(0, 2000));
    const offered = (requestAt(server, 0).body?.tools ?? []).filter((tool) => tool.function.name.startsWith('probe__'));
    assert.ok(offered.length > 100 && offered.length < 404, `${offered.length} offered`);
    const bytes = offered.reduce((sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool.function)), 0);
    assert.ok(bytes <= 110_000, `${bytes} bytes of definitions offered`);
    const lines = linesAbout(result.stderr, 'probe');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] ?? '', new RegExp(`MCP server probe offers 404 tools .*only the first ${offered.length} `));
  });

  it('raised per server, its bounds let all 10,011 through, and the context warning names the tools, not the message', async () => {
    const cwd = workspaceWith({ env: { MANY_TOOLS: '10007' }, maxTools: 20_000, maxToolSchemaBytes: 10_000_000 });
    // The loopback model bills the whole request: the turn's token budget must hold 10,011 tools.
    const { server, result } = await run(cwd, [text('好。')], { args: ['-p', '用工具', '--token-budget', '100000000'] });
    assert.equal(result.code, 0, result.stderr.slice(0, 2000));
    assert.equal(toolNamesOf(server, 0).filter((name) => name.startsWith('probe__')).length, 10_011);
    assert.equal(linesAbout(result.stderr, 'probe').length, 0, result.stderr);
    assert.match(result.stderr, /the definitions of the 10,0\d\d tools take about [\d,]+ tokens, more than the \d+k context window leaves for them; most are probe__\* \(10,011 tools/);
    assert.ok(!/this message is about/.test(result.stderr), result.stderr);
  });
});
