import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

// A notice from the side (checkpoints of older sessions tidied away, an MCP server's warning) is
// shown between blocks — before the turn's output, between its steps, or after it — never inside
// an answer or between a tool line and its result.

const NOTICE = /^\(checkpoints of \d+ older sessions? removed: Sylvan keeps those of the last 20 sessions\)$/;
const QUESTION = '北京今天天气怎么样？';
/** The mock model's own pace (a chunk every 15 ms), so the tidying ends while the turn is still streaming. */
const PACED = { SYLVAN_MOCK_DELAY_MS: '15' };

/** A workspace whose Sylvan home holds 22 earlier sessions with checkpoints: the first turn tidies some away. */
function workspaceWithOldSessions(): string {
  const workspace = tempWorkspace('sylvan-notices-');
  const home = join(workspace, '.sylvan-home');
  for (let index = 10; index < 32; index++) {
    const id = `2020-01-01T00-00-${index}-000Z-ab${index}`;
    mkdirSync(join(home, 'sessions'), { recursive: true });
    writeFileSync(join(home, 'sessions', `${id}.jsonl`), '{}\n');
    mkdirSync(join(home, 'checkpoints', id), { recursive: true });
    writeFileSync(join(home, 'checkpoints', id, 'index.json'), '{"turns":[],"redo":[]}');
  }
  return workspace;
}

/** Fails unless the notice is shown once, on a line of its own, outside the tool call's block and outside the answer. */
function assertBetweenBlocks(screen: string): void {
  const lines = screen.split('\n');
  const notices = lines.flatMap((line, index) => (NOTICE.test(line) ? [index] : []));
  assert.equal(notices.length, 1, screen);
  const call = lines.findIndex((line) => line.startsWith('⏺ get_weather('));
  const result = lines.findIndex((line, index) => index > call && line.startsWith('  ⎿ '));
  assert.ok(call >= 0 && result > call, screen);
  assert.ok(notices[0]! < call || notices[0]! > result, `the notice came between the tool line and its result:\n${screen}`);
  assert.match(screen, /^北京现在基本晴朗，气温 12°C.*$/m, 'the answer is one unbroken line');
}

describe('side-channel notices are shown between blocks', () => {
  test('print mode: the clean-up notice is not between the tool line and its result', async () => {
    const cwd = workspaceWithOldSessions();
    const { code, stdout, stderr } = await runCli({ inProcess: true, cwd, args: ['-p', QUESTION], env: PACED });
    assert.equal(code, 0, stderr);
    assertBetweenBlocks(`${stderr}\n${stdout}`);
    assert.doesNotMatch(stdout, /checkpoints of/, 'a notice in the answer on stdout');
  });

  test('a piped REPL: the clean-up notice is outside the tool call and the answer', async () => {
    const cwd = workspaceWithOldSessions();
    const { code, stdout, stderr } = await runCli({ inProcess: true, cwd, stdin: `${QUESTION}\n`, env: PACED });
    assert.equal(code, 0, stderr);
    assertBetweenBlocks(stdout);
  });
});
