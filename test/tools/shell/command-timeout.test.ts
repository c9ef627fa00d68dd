import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, mock, test } from 'node:test';
import { createRunCommandTool, describeCommand } from '../../../src/tools/shell/run-command.ts';

// run_command's timeout: the default is what docs/tools.md says; timeout_seconds above the cap is
// capped (and the approval preview says so); under it, used as given.

const workspace = mkdtempSync(join(tmpdir(), 'sylvan-command-timeout-'));
after(() => rmSync(workspace, { recursive: true, force: true }));

/** docs/tools.md's promise for run_command: "Default timeout N s, at most M s". */
function readmeTimeouts(): { defaultSeconds: number; maxSeconds: number } {
  const readme = readFileSync(new URL('../../../docs/tools.md', import.meta.url), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith('| `run_command'));
  const match = /Default timeout (\d+) s, at most (\d+) s/.exec(row ?? '');
  assert.ok(match, `docs/tools.md's run_command row names its timeouts: ${row}`);
  return { defaultSeconds: Number(match[1]), maxSeconds: Number(match[2]) };
}

describe("run_command's timeout", { timeout: 20_000 }, () => {
  /** The timer delays (≥ 10 s) the command was run under: the only ones that long a quick command sets. */
  async function timersOf(input: { command: string; timeout_seconds?: number }): Promise<number[]> {
    const tool = createRunCommandTool({ workspaceRoot: workspace, graceMs: 200 });
    const spy = mock.method(globalThis, 'setTimeout');
    try {
      const result = await (tool.execute as (input: unknown, options: unknown) => Promise<string>)(input, { toolCallId: 'call-1', messages: [] });
      assert.match(result, /^exit code 0/);
    } finally {
      spy.mock.restore();
    }
    return spy.mock.calls.map((call) => Number(call.arguments[1] ?? 0)).filter((delay) => delay >= 10_000);
  }

  test("without timeout_seconds, the documented default", async () => {
    const { defaultSeconds } = readmeTimeouts();
    assert.deepEqual(await timersOf({ command: 'true' }), [defaultSeconds * 1000]);
    assert.match(describeCommand(workspace, { command: 'true' }).preview, new RegExp(`stops after ${defaultSeconds} s$`, 'm'));
  });

  test("timeout_seconds above the cap runs under the documented cap, and the approval preview says so", async () => {
    const { maxSeconds } = readmeTimeouts();
    assert.deepEqual(await timersOf({ command: 'true', timeout_seconds: 86_400 }), [maxSeconds * 1000]);
    assert.match(describeCommand(workspace, { command: 'true', timeout_seconds: 86_400 }).preview, new RegExp(`stops after ${maxSeconds} s$`, 'm'));
  });

  test('timeout_seconds under the cap is used as given', async () => {
    assert.deepEqual(await timersOf({ command: 'true', timeout_seconds: 45 }), [45_000]);
  });
});
