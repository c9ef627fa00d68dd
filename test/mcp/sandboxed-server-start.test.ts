import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { McpHub } from '../../src/mcp/mcp-hub.ts';
import { probeSandbox } from '../../src/sandbox/availability.ts';
import { CommandSandbox } from '../../src/sandbox/command-sandbox.ts';
import { TEST_SERVER } from './mcp-helpers.ts';

// An MCP server with "sandbox": true is started in bubblewrap, which mounts over the host's service
// sockets to hide them. A service that removes its socket between the look-up and the mount made
// bubblewrap fail before the server ran; the start is then tried once more.

const availability = probeSandbox();
const skip = availability.available ? false : `needs a working bubblewrap (the suite's .ci/run installs it): ${availability.reason}`;

// Outside /tmp: the sandbox gives /tmp a folder of its own.
const root = mkdtempSync(join('/var/tmp', 'sylvan-mcp-sandbox-'));
const home = join(root, 'home');
const workspace = join(home, 'project');
mkdirSync(workspace, { recursive: true });
after(() => rmSync(root, { recursive: true, force: true }));

/** A sandbox whose first start finds a service's socket that is gone by the time bubblewrap mounts over it. */
class VanishingSocket extends CommandSandbox {
  wraps = 0;
  constructor(private readonly socket: string) {
    super({ settings: { mode: 'on', network: false, source: 'the test' }, workspaceRoot: workspace, sylvanHome: join(home, '.sylvan'), environment: { ...process.env, HOME: home } });
  }
  override wrap(...args: Parameters<CommandSandbox['wrap']>) {
    const invocation = super.wrap(...args);
    if (this.wraps++ === 0) {
      assert.ok(invocation.masks?.includes(this.socket), 'the sandbox did not look the socket up, so this test proves nothing');
      unlinkSync(this.socket);
    }
    return invocation;
  }
}

describe('an MCP server started in the sandbox', { skip, timeout: 60_000 }, () => {
  test('while a host socket vanishes as it starts: it starts on the second try and offers its tools', async () => {
    const socket = join(mkdtempSync(join(root, 'service-')), 'service.sock');
    const service = createNetServer();
    await new Promise<void>((resolve) => service.listen(socket, resolve));
    after(() => service.close());
    const sandbox = new VanishingSocket(socket);
    const hub = new McpHub({
      servers: { fenced: { command: process.execPath, args: [TEST_SERVER], sandbox: true } },
      workspaceRoot: workspace,
      startTimeoutMs: 20_000,
      callTimeoutMs: 10_000,
      sandbox,
    });
    try {
      await hub.settled(30_000);
      const [summary] = hub.summaries();
      assert.equal(summary?.status, 'ready', `the server did not start: ${summary?.lastError} ${summary?.stderr.join(' ')}`);
      assert.ok(Object.keys(hub.tools()).some((name) => name.endsWith('slow')), 'its tools are offered');
      assert.equal(sandbox.wraps, 2, 'started twice: the failed start and the one that ran');
    } finally {
      await hub.close();
    }
  });
});
