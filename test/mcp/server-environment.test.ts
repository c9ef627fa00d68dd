import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { McpHub } from '../../src/mcp/mcp-hub.ts';
import { livingWith } from '../tools/shell/group-processes.ts';
import { eventually, fileHas } from './mcp-helpers.ts';

// A stdio MCP server gets a small inherited environment plus its own `env`: never Sylvan's keys;
// a hub, once closed, leaves nothing in the process.

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'sylvan-mcp-env-'));
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
});

describe("MCP hubs and the process's listeners", { timeout: 30_000 }, () => {
  // An editor opens session after session in one `sylvan --acp`, each with its own hub: listeners
  // added by each would keep every closed hub (and its servers' state) for the process's life, and
  // past ten Node prints a warning about a leak.
  const events = ['exit', 'SIGTERM', 'SIGHUP'] as const;
  const listenerCounts = () => events.map((event) => process.listenerCount(event));

  it('twelve hubs open at once share one listener for exit, SIGTERM and SIGHUP; none is left, nor any server, once they closed', async () => {
    const before = listenerCounts();
    // Closed at once, as they start: a server must not start after its hub closed.
    const seconds = `31.${process.pid}`;
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const hubs = Array.from(
      { length: 12 },
      () => new McpHub({ servers: { idle: { command: 'sleep', args: [seconds] } }, workspaceRoot: folder(), startTimeoutMs: 10_000, callTimeoutMs: 10_000 }),
    );
    try {
      assert.deepEqual(listenerCounts(), before.map((count) => count + 1));
    } finally {
      await Promise.all(hubs.map((hub) => hub.close()));
    }
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    assert.deepEqual(listenerCounts(), before);
    assert.deepEqual(warnings, []);
    await eventually(() => livingWith(`sleep ${seconds}`).length === 0, 'every server to have ended', 5_000);
  });

  it('a hub leaves no process listener behind once closed', async () => {
    const before = listenerCounts();
    const dir = folder();
    const started = join(dir, 'started');
    const hub = new McpHub({
      servers: { idle: { command: process.execPath, args: ['-e', `require("node:fs").writeFileSync(${JSON.stringify(started)}, "}"); setInterval(() => {}, 1000)`] } },
      workspaceRoot: dir,
      startTimeoutMs: 10_000,
      callTimeoutMs: 10_000,
    });
    try {
      await eventually(() => fileHas(started, '}'), 'the server started', 10_000);
      assert.ok(process.listenerCount('exit') > before[0]!, 'an open hub ends its servers when the process exits');
    } finally {
      await hub.close();
    }
    assert.deepEqual(listenerCounts(), before);
  });
});
