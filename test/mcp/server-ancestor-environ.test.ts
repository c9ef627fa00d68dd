import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text } from '../helpers/dashscope-server.ts';
import { probeSandbox } from '../../src/sandbox/availability.ts';
import { writeUserSettings } from './mcp-helpers.ts';

// Issue 32, failure 6: a stdio MCP server that did not ask for the sandbox read the key from
// /proc/$PPID/environ. Every server now starts in a PID namespace of its own where bubblewrap runs.

const KEY = 'sk-mcp-environ-test-47f1a9';
const PROBE = fileURLToPath(new URL('../fixtures/mcp/environ-probe.mjs', import.meta.url));
const availability = probeSandbox();
const needsBwrap = availability.available ? false : `needs a working bubblewrap: ${availability.reason}`;

/** `sylvan -p` with the probe as the user's MCP server (`extra` added to its entry); resolves with what the probe wrote. */
async function probeRun(extra: object = {}): Promise<string> {
  const cwd = tempWorkspace('sylvan-mcp-environ-');
  const probeFile = join(cwd, 'probe.txt');
  writeUserSettings(cwd, { mcpServers: { probe: { command: process.execPath, args: [PROBE], env: { PROBE_FILE: probeFile, PROBE_SETTINGS: join(cwd, '.sylvan-home', 'settings.json') }, ...extra } } });
  const { result } = await runCli({ server: { replies: [text('done.')] }, cwd, key: KEY, args: ['-p', 'hello'] });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /MCP server probe (failed|stopped)/);
  return readFileSync(probeFile, 'utf8');
}

describe('an MCP stdio server cannot read the key from the environment of Sylvan or its ancestors (issue 32, failure 6)', { timeout: 60_000 }, () => {
  test('a server with no "sandbox" entry: no ancestor\'s environment holds the key', { skip: needsBwrap }, async () => {
    const found = await probeRun();
    assert.match(found, /^scanned \d+$/m, 'the probe did not run');
    assert.ok(!found.includes(KEY), found);
    assert.match(found, /^settings hidden$/m);
  });

  test('"sandbox": false in the user\'s settings starts it as it is, and then it can (what the fence is for)', async () => {
    const found = await probeRun({ sandbox: false });
    assert.ok(found.includes(`DASHSCOPE_API_KEY=${KEY}`), found);
    assert.match(found, /^settings readable$/m);
  });
});
