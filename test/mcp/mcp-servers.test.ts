import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { assertEveryRequestValid, requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';
import {
  EVERYTHING,
  eventually,
  FILESYSTEM,
  serverPid,
  processesIn,
  startEverythingHttp,
  TEST_SERVER,
  writeProjectSettings,
  writeUserSettings,
} from './mcp-helpers.ts';

const KEY = 'sk-sylvan-mcp-test-7d2a41';
const toolNamesOf = (server: { requests: { body?: { tools?: Array<{ function: { name: string } }> } }[] }, index: number) =>
  (server.requests[index]?.body?.tools ?? []).map((tool) => tool.function.name);
const warningLines = (stderr: string, server: string) => stderr.split('\n').filter((line) => line.startsWith(`(MCP server ${server} `));

/**
 * Runs `sylvan -p` in `cwd` (its user settings already written) against a loopback model replying
 * `replies`: in this process, unless `asProcess` (what is left running after Sylvan exits).
 */
const ask = (cwd: string, replies: Reply[], options: { asProcess?: boolean } = {}) =>
  runCli({ inProcess: !options.asProcess, server: { replies }, key: KEY, cwd, args: ['-p', '用工具'], killAfterMs: 40_000 });

describe('MCP servers over stdio: everything and filesystem', () => {
  const cwd = tempWorkspace('sylvan-mcp-');
  writeFileSync(join(cwd, 'notes.txt'), 'MCP 读到的内容 42\n');
  writeUserSettings(cwd, {
    permissions: { allow: ['mcp:filesystem__read_file'] },
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
      filesystem: { command: process.execPath, args: [FILESYSTEM, cwd] },
    },
  });
  const run = ask(
    cwd,
    [
      toolCalls([
        { id: 'call_echo', name: 'everything__echo', arguments: { message: 'hello from sylvan' } },
        { id: 'call_read', name: 'filesystem__read_file', arguments: { path: join(cwd, 'notes.txt') } },
      ]),
      text('两个工具都回答了。'),
    ],
    { asProcess: true },
  );

  it('lists their tools in the first request, with their JSON Schemas', { timeout: 60_000 }, async () => {
    const { server, result } = await run;
    assert.equal(result.code, 0, result.stderr);
    const names = toolNamesOf(server, 0);
    for (const name of ['everything__echo', 'filesystem__read_file', 'filesystem__list_directory', 'read_file', 'calculate']) {
      assert.ok(names.includes(name), `${name} missing from ${names.join(', ')}`);
    }
    const echo = requestAt(server, 0).body?.tools?.find((tool) => tool.function.name === 'everything__echo');
    assert.deepEqual((echo?.function.parameters as { required?: string[] }).required, ['message']);
    assert.ok(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name)), names.join(', '));
  });

  it('round-trips everything__echo and filesystem__read_file (approved ahead by the settings)', { timeout: 60_000 }, async () => {
    const { server, result } = await run;
    assertEveryRequestValid(server);
    assert.match(toolResultText(requestAt(server, 1), 'call_echo'), /hello from sylvan/);
    assert.match(toolResultText(requestAt(server, 1), 'call_read'), /MCP 读到的内容 42/);
    assert.ok(result.stdout.includes('两个工具都回答了。'));
    assert.equal(result.stderr.includes('MCP server'), false, `no warning expected: ${result.stderr}`);
  });

  it('leaves no server process running after Sylvan exits', { timeout: 60_000 }, async () => {
    await run;
    await eventually(() => processesIn(cwd).length === 0, `the servers started in ${cwd} exited (left: ${processesIn(cwd).join(', ')})`);
  });
});

describe("a folder's settings cannot start an MCP server", () => {
  it('its server is not started, its tools are not offered, and one line says why', { timeout: 60_000 }, async () => {
    const cwd = tempWorkspace('sylvan-mcp-');
    const marker = join(cwd, 'server-ran');
    // The "server" would leave a file behind if it were ever started.
    writeProjectSettings(cwd, { mcpServers: { planted: { command: '/bin/sh', args: ['-c', `touch ${marker}; sleep 30`] } } });
    const { server, result } = await ask(cwd, [text('没有别的工具。')]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(marker), false, 'the project server ran');
    assert.ok(!toolNamesOf(server, 0).some((name) => name.startsWith('planted__')));
    assert.match(result.stderr, /MCP server planted in .*settings\.json was not started: a folder's settings cannot start programs/);
  });
});

describe('MCP server over Streamable HTTP: everything', () => {
  const http = startEverythingHttp();
  after(async () => (await http).stop());

  it('offers its tools in the first request and round-trips everything__echo', { timeout: 60_000 }, async () => {
    const { url } = await http;
    const cwd = tempWorkspace('sylvan-mcp-http-');
    writeUserSettings(cwd, { mcpServers: { everything: { url, trust: true } } });
    const { server, result } = await ask(cwd, [
      toolCalls([{ id: 'call_echo', name: 'everything__echo', arguments: { message: 'over http' } }]),
      text('好了。'),
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(toolNamesOf(server, 0).includes('everything__get-sum'), toolNamesOf(server, 0).join(', '));
    assert.match(toolResultText(requestAt(server, 1), 'call_echo'), /over http/);
  });
});

describe('MCP servers that fail', () => {
  it('a missing command and a server killed mid-call each cost one warning; the turn completes', { timeout: 60_000 }, async () => {
    const cwd = tempWorkspace('sylvan-mcp-fail-');
    const pidFile = join(cwd, 'flaky.pid');
    writeUserSettings(cwd, {
      mcpServers: {
        missing: { command: 'sylvan-no-such-mcp-server' },
        flaky: { command: process.execPath, args: [TEST_SERVER], env: { PID_FILE: pidFile }, trust: true },
      },
    });
    const { server, result } = await ask(cwd, [
      toolCalls([{ id: 'call_die', name: 'flaky__die', arguments: {} }]),
      text('那个服务器停了。'),
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.includes('那个服务器停了。'));
    assert.equal(warningLines(result.stderr, 'missing').length, 1, result.stderr);
    assert.match(warningLines(result.stderr, 'missing')[0] ?? '', /command not found: sylvan-no-such-mcp-server/);
    assert.equal(warningLines(result.stderr, 'flaky').length, 1, result.stderr);
    assert.match(toolResultText(requestAt(server, 1), 'call_die'), /stopped during the call/);
    assert.equal(serverPid(pidFile), 0, 'the killed server is still running');
  });

  it('a server answering garbage mid-call, and one that never answers at start, each cost one warning', { timeout: 60_000 }, async () => {
    const cwd = tempWorkspace('sylvan-mcp-garbage-');
    writeUserSettings(cwd, {
      mcpStartTimeout: 2,
      mcpServers: {
        mute: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
        garbled: { command: process.execPath, args: [TEST_SERVER], trust: true },
      },
    });
    const { server, result } = await ask(cwd, [
      toolCalls([{ id: 'call_garble', name: 'garbled__garble', arguments: {} }]),
      text('服务器坏了。'),
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(warningLines(result.stderr, 'mute').length, 1, result.stderr);
    assert.match(warningLines(result.stderr, 'mute')[0] ?? '', /timed out after 2 s starting/);
    assert.equal(warningLines(result.stderr, 'garbled').length, 1, result.stderr);
    assert.match(warningLines(result.stderr, 'garbled')[0] ?? '', /not an MCP message/);
    assert.match(toolResultText(requestAt(server, 1), 'call_garble'), /stopped during the call/);
    assert.ok(!toolNamesOf(server, 0).some((name) => name.startsWith('mute__')));
    await eventually(() => processesIn(cwd).length === 0, 'both servers ended with Sylvan');
  });

  it('asks for approval by default: print mode without --yes denies an untrusted server\'s tool', { timeout: 60_000 }, async () => {
    const cwd = tempWorkspace('sylvan-mcp-approval-');
    writeUserSettings(cwd, { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
    const { server, result } = await ask(cwd, [
      toolCalls([{ id: 'call_echo', name: 'everything__echo', arguments: { message: 'not without asking' } }]),
      text('需要批准。'),
    ]);
    assert.equal(result.code, 0, result.stderr);
    const answer = toolResultText(requestAt(server, 1), 'call_echo');
    assert.match(answer, /needs the user's approval/);
    assert.ok(!answer.includes('Echo: not without asking'));
    await eventually(() => processesIn(cwd).length === 0, 'the server exited with Sylvan');
  });
});
