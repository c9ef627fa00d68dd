import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { eventually, fileHas, isAlive, serverPid, TEST_SERVER, writeUserSettings } from './mcp-helpers.ts';

/** A workspace whose user settings start the fixture server, trusted, recording to files in the workspace. */
function workspaceWithTestServer() {
  const cwd = tempWorkspace('sylvan-mcp-life-');
  const pidFile = join(cwd, 'server.pid');
  const eventFile = join(cwd, 'events.txt');
  writeUserSettings(cwd, {
    mcpServers: { probe: { command: process.execPath, args: [TEST_SERVER], env: { PID_FILE: pidFile, EVENT_FILE: eventFile }, trust: true } },
  });
  const pidText = () => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : '');
  return {
    cwd,
    pidFile,
    eventFile,
    /** Its pid as the host sees it (it may run in a PID namespace of its own). */
    pid: () => serverPid(pidFile),
    /** The server wrote its whole pid: the file exists for a moment before it holds one. */
    pidWritten: () => /^\d+$/.test(pidText()),
  };
}

describe('MCP server lifecycle', () => {
  it('Ctrl-C during a call cancels it on the server (notifications/cancelled) and the server ends with Sylvan', { timeout: 60_000 }, async () => {
    const model = closeAtEnd(
      await startDashScopeServer({ replies: [toolCalls([{ id: 'call_slow', name: 'probe__slow', arguments: {} }]), text('unused')] }),
    );
    const workspace = workspaceWithTestServer();
    const cli = startCli({ cwd: workspace.cwd, args: ['-p', '慢慢来'], env: dashscopeEnv(model), stdin: '' });
    try {
      await eventually(() => fileHas(workspace.eventFile, 'started'), 'the slow tool started on the server', 20_000);
      const pid = workspace.pid();
      assert.ok(isAlive(pid));
      cli.child.kill('SIGINT');
      const exited = await cli.exited;
      assert.equal(exited.code, 130, exited.stderr);
      await eventually(() => fileHas(workspace.eventFile, 'cancelled'), 'the server saw the cancellation');
      await eventually(() => !isAlive(pid), 'the server process ended');
      assert.ok(!fileHas(workspace.eventFile, 'exited by itself'), 'the server was left to end on its own');
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} to a waiting REPL ends the server processes too`, { timeout: 60_000 }, async () => {
      const model = closeAtEnd(await startDashScopeServer({ replies: [text('你好。')] }));
      const workspace = workspaceWithTestServer();
      // stdin stays open: the REPL waits at its prompt, the server started in the background.
      const cli = startCli({ cwd: workspace.cwd, env: dashscopeEnv(model) });
      try {
        await eventually(workspace.pidWritten, 'the server wrote its pid', 20_000);
        const pid = workspace.pid();
        assert.ok(isAlive(pid));
        cli.child.kill(signal);
        const exited = await cli.exited;
        assert.notEqual(exited.code, 0);
        await eventually(() => !isAlive(pid), `the server (pid ${pid}) ended with Sylvan on ${signal}`);
        assert.ok(!fileHas(workspace.eventFile, 'exited by itself'), 'the server was left to end on its own');
      } finally {
        cli.child.kill('SIGKILL');
      }
    });
  }

  it('a server that has not started yet does not hold up the REPL, and /mcp shows it', { timeout: 60_000 }, async () => {
    const model = closeAtEnd(await startDashScopeServer({ replies: [text('好的。')] }));
    const workspace = workspaceWithTestServer();
    const cli = startCli({ cwd: workspace.cwd, env: dashscopeEnv(model), stdin: '/mcp\n' });
    const exited = await cli.exited;
    assert.equal(exited.code, 0, exited.stderr);
    assert.match(exited.stdout, /probe {2}(starting|ready)/);
    assert.equal(exited.stderr, '', 'the server\'s stderr never reaches the terminal');
    assert.ok(!exited.stdout.includes('test server ready'), 'the server\'s stderr never reaches the terminal');
  });
});

// The model reads a cut result whole: the tool result is bounded.
describe('MCP tool results', () => {
  it('are text for the model', { timeout: 30_000 }, async () => {
    const { resultText } = await import('../../src/mcp/call-result.ts');
    assert.equal(resultText({ content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }), 'a\n[image image/png, 3 bytes, not shown to you]');
    assert.match(resultText({ content: [{ type: 'text', text: 'x'.repeat(20_000) }] }), /cut: the result had 20,000 characters/);
    assert.throws(() => resultText({ isError: true, content: [{ type: 'text', text: 'no such file' }] }), /no such file/);
    assert.match(resultText({ content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'body' } }] }), /\[resource file:\/\/\/a\]\nbody/);
  });

  it('are offered under unique provider-safe names of at most 64 characters', { timeout: 30_000 }, async () => {
    const { offeredToolName } = await import('../../src/mcp/tool-names.ts');
    const taken = new Set<string>();
    assert.equal(offeredToolName('my server', 'read.file', taken), 'my_server__read_file');
    assert.equal(offeredToolName('my-server', 'read file', taken), 'my-server__read_file');
    assert.equal(offeredToolName('my server', 'read/file', taken), 'my_server__read_file_2');
    const long = offeredToolName('s'.repeat(40), 't'.repeat(40), taken);
    assert.equal(long.length, 64);
    assert.notEqual(offeredToolName('s'.repeat(40), 't'.repeat(41), taken), long);
  });
});

