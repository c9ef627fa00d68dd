import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli, startCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { probeSandbox } from '../../src/sandbox/availability.ts';
import { goneWithin, livingWith } from '../tools/shell/group-processes.ts';
import { eventually, TEST_SERVER, writeUserSettings } from './mcp-helpers.ts';

const availability = probeSandbox();
const needsBwrap = availability.available ? false : `needs a working bubblewrap (the suite's .ci/run installs it): ${availability.reason}`;

/** A stdio server that first leaves a `setsid` grandchild behind, then serves. */
const serverWithEscapee = (sleeper: string, sandbox?: boolean) => ({
  command: 'bash',
  args: ['-c', `setsid sleep ${sleeper} > /dev/null 2>&1 & exec "${process.execPath}" "${TEST_SERVER}"`],
  ...(sandbox && { sandbox: true }),
});

// Failure 3 of issue 22, for MCP: a server's setsid descendant outlived Sylvan.
describe("an MCP stdio server's descendants end with Sylvan", { timeout: 90_000 }, () => {
  test('a setsid grandchild of the server is gone when Sylvan exits', async () => {
    const sleeper = `9${process.pid}${Math.floor(Math.random() * 10_000)}`;
    const cwd = tempWorkspace();
    writeUserSettings(cwd, { mcpServers: { spawner: serverWithEscapee(sleeper) } });
    const result = await runCli({ cwd, args: ['-p', 'hello'] });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(livingWith(`sleep ${sleeper}`), [], 'the grandchild outlived Sylvan');
  });

  test('kill -9 of Sylvan, which runs no hook: the watchdog ends the server and its setsid grandchild', { skip: process.platform !== 'linux' && 'the watchdog finds processes in /proc (Linux)' }, async () => {
    const sleeper = `9${process.pid}${Math.floor(Math.random() * 10_000)}`;
    const cwd = tempWorkspace();
    writeUserSettings(cwd, { mcpServers: { spawner: serverWithEscapee(sleeper) } });
    // stdin stays open: the REPL waits at its prompt, the server started in the background.
    const cli = startCli({ cwd });
    try {
      await eventually(() => livingWith(`sleep ${sleeper}`).length > 0, 'the server started its grandchild', 20_000);
      cli.child.kill('SIGKILL');
      assert.equal((await cli.exited).signal, 'SIGKILL');
      await goneWithin(`sleep ${sleeper}`, 5_000);
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  test('a server with "sandbox": true starts in the sandbox, and its grandchild ends with it', { skip: needsBwrap }, async () => {
    const sleeper = `9${process.pid}${Math.floor(Math.random() * 10_000)}`;
    const cwd = tempWorkspace();
    writeUserSettings(cwd, { mcpServers: { spawner: serverWithEscapee(sleeper, true) } });
    const result = await runCli({ cwd, args: ['--json', '-p', 'hello'] });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout + result.stderr, /MCP server spawner (failed|stopped)/);
    assert.deepEqual(livingWith(`sleep ${sleeper}`), []);
  });
});
