import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { McpHub } from '../../src/mcp/mcp-hub.ts';
import { offeredToolName } from '../../src/mcp/tool-names.ts';
import { eventually, fileHas, isAlive, TEST_SERVER } from './mcp-helpers.ts';

// Issue 19 §1, MCP: what the README promises of stdio servers and tool names, each held by a test.

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'sylvan-claims-mcp-'));
  folders.push(made);
  return made;
};
after(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

/** Variables any process may inherit to run (the README: "a small inherited environment (PATH, HOME, …)"). */
const ORDINARY = /^(HOME|LOGNAME|PATH|SHELL|TERM|USER|LANG|LANGUAGE|LC_[A-Z_]+|TMPDIR|TEMP|TMP|TZ|SystemRoot)$/;

describe('an MCP stdio server', { timeout: 30_000 }, () => {
  it("gets only a small inherited environment plus its own env: never Sylvan's keys or other variables", async () => {
    const dir = folder();
    const envFile = join(dir, 'env.json');
    const planted = {
      DASHSCOPE_API_KEY: 'sk-dashscope-must-not-leak',
      OPENAI_API_KEY: 'sk-openai-must-not-leak',
      SYLVAN_MODEL: 'qwen-plus',
      GITHUB_TOKEN: 'ghp_must_not_leak',
      SOME_UNRELATED_VARIABLE: 'not-for-the-server',
    };
    const saved = Object.fromEntries(Object.keys(planted).map((name) => [name, process.env[name]]));
    Object.assign(process.env, planted);
    const hub = new McpHub({
      servers: {
        dump: {
          command: process.execPath,
          args: ['-e', 'require("node:fs").writeFileSync(process.env.ENV_FILE, JSON.stringify(process.env))'],
          env: { ENV_FILE: envFile, LISTED_FOR_THE_SERVER: 'yes' },
        },
      },
      workspaceRoot: dir,
      startTimeoutMs: 10_000,
      callTimeoutMs: 10_000,
    });
    try {
      await eventually(() => fileHas(envFile, '}'), 'the server wrote its environment', 10_000);
    } finally {
      await hub.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    const seen = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    assert.equal(seen.LISTED_FOR_THE_SERVER, 'yes', 'its own env reaches it');
    assert.equal(seen.PATH, process.env.PATH, 'PATH is inherited');
    for (const name of Object.keys(planted)) assert.equal(seen[name], undefined, `${name} reached the server`);
    // SYLVAN_PROCESS_MARK is Sylvan's own: the session's mark, by which its descendants are found and ended (no secret).
    assert.match(seen.SYLVAN_PROCESS_MARK ?? '', /\S/, 'the server carries the session mark');
    const extra = Object.keys(seen).filter(
      (name) => !ORDINARY.test(name) && !['ENV_FILE', 'LISTED_FOR_THE_SERVER', 'SYLVAN_PROCESS_MARK'].includes(name),
    );
    assert.deepEqual(extra, [], 'variables beyond the inherited few and its env');
  });

  it('is killed by the process-exit hook when Sylvan leaves through process.exit(), without close()', async () => {
    const dir = folder();
    const pidFile = join(dir, 'server.pid');
    const eventFile = join(dir, 'events.txt');
    const script = fileURLToPath(new URL('./hub-then-exit.ts', import.meta.url));
    // Started from the project, where `--import tsx` resolves.
    const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, TEST_SERVER, pidFile, eventFile, dir], {
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

describe('offered MCP tool names', () => {
  it('stay within 64 characters of [a-zA-Z0-9_-] when de-duplicated, however many collide', () => {
    const taken = new Set<string>();
    const names = Array.from({ length: 12 }, (_, n) => offeredToolName('s'.repeat(40), `${'t'.repeat(40)}${'x'.repeat(n)}`, taken));
    assert.equal(new Set(names).size, names.length, `unique: ${names.join(', ')}`);
    for (const name of names) assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/, `${name} (${name.length} characters)`);
  });
});
