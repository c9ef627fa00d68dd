import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { childScript } from '../helpers/child-script.ts';
import { eventually, fileHas, isAlive, TEST_SERVER } from './mcp-helpers.ts';

// A stdio MCP server ends with Sylvan even when Sylvan leaves through process.exit() without
// closing its hub: the process-exit hook kills it.

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'sylvan-mcp-exit-'));
  folders.push(made);
  return made;
};
after(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

describe('an MCP stdio server', { timeout: 30_000 }, () => {
  it('is killed by the process-exit hook when Sylvan leaves through process.exit(), without close()', async () => {
    const dir = folder();
    const pidFile = join(dir, 'server.pid');
    const eventFile = join(dir, 'events.txt');
    const script = childScript(import.meta.resolve('./hub-then-exit.js'), new URL('./hub-then-exit.ts', import.meta.url));
    const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
    const child = spawn(process.execPath, [...script, TEST_SERVER, pidFile, eventFile, dir], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, stderr);
    const pid = Number(stdout.trim());
    assert.ok(pid > 0, `the hub printed the server's pid: ${stdout}`);
    try {
      await eventually(() => !isAlive(pid), `the server (pid ${pid}) ended with the process that started it`);
      assert.ok(!fileHas(eventFile, 'exited by itself'), 'the server was left to end on its own');
    } finally {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone, as it should be.
      }
    }
  });
});
