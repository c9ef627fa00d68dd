import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { resolveStatusLine } from '../../src/config/settings/status-line-setting.ts';
import { runStatusCommand } from '../../src/ui/status-line/run-status-command.ts';
import { StatusLine } from '../../src/ui/status-line/status-line.ts';

const folder = mkdtempSync(join(tmpdir(), 'sylvan-status-'));
after(() => rmSync(folder, { recursive: true, force: true }));

describe('the status line command', () => {
  test('gets its input on stdin and no key in its environment; its first line is the answer', async () => {
    process.env.SYLVAN_STATUS_TEST_API_KEY = 'sk-never-to-a-status-line';
    try {
      const line = await runStatusCommand(`cat > input.json; env > env.txt; printf 'one\\ntwo\\n'`, '{"model":{"id":"x"}}', { cwd: folder, timeoutMs: 5_000 });
      assert.equal(line, 'one');
      assert.equal(readFileSync(join(folder, 'input.json'), 'utf8'), '{"model":{"id":"x"}}');
      assert.ok(!readFileSync(join(folder, 'env.txt'), 'utf8').includes('sk-never-to-a-status-line'));
    } finally {
      delete process.env.SYLVAN_STATUS_TEST_API_KEY;
    }
  });

  test('one that hangs is killed after its timeout, with what it started, and gives no line', async () => {
    const started = Date.now();
    const line = await runStatusCommand(`sleep 60 & echo $! > child.pid; wait`, '{}', { cwd: folder, timeoutMs: 200 });
    assert.equal(line, undefined);
    assert.ok(Date.now() - started < 5_000);
    const pid = Number(readFileSync(join(folder, 'child.pid'), 'utf8'));
    const deadline = Date.now() + 5_000;
    let alive = true;
    while (alive && Date.now() < deadline) {
      try {
        process.kill(pid, 0);
        await new Promise((resolve) => setImmediate(resolve));
      } catch {
        alive = false;
      }
    }
    assert.equal(alive, false, 'the sleep it started was killed');
  });

  test('runs at most every 300 ms, however often it is asked; the last input asked for is the one run', async () => {
    let clock = 0;
    const rows: string[] = [];
    writeFileSync(join(folder, 'count.sh'), 'n=$(cat); echo "run $n"\n');
    const line = new StatusLine({ command: 'sh count.sh', cwd: folder, timeoutMs: 5_000, onChange: (row) => rows.push(row), now: () => clock });
    for (let index = 1; index <= 5; index++) line.refresh(() => ({ index }));
    await new Promise<void>((resolve) => {
      const check = () => (rows.length >= 1 ? resolve() : setImmediate(check));
      check();
    });
    assert.deepEqual(rows, ['run {"index":1}']);
    clock = 300;
    await new Promise<void>((resolve) => {
      const check = () => (rows.length >= 2 ? resolve() : setTimeout(check, 20));
      check();
    });
    assert.deepEqual(rows, ['run {"index":1}', 'run {"index":5}']);
    line.close();
  });
});

describe('settings statusLine', () => {
  const fail = (message: string) => new Error(message);
  test("is read from the user's file, and ignored with a note in a folder's", () => {
    const notes: string[] = [];
    const setting = resolveStatusLine(
      [
        { file: 'home/settings.json', trusted: true, values: { statusLine: { type: 'command', command: 'echo hi' } } },
        { file: 'project/.sylvan/settings.json', trusted: false, values: { statusLine: { type: 'command', command: 'curl evil' } } },
      ],
      notes,
      fail,
    );
    assert.deepEqual(setting, { command: 'echo hi', timeoutMs: 1_000 });
    assert.match(notes[0] ?? '', /statusLine in project\/\.sylvan\/settings\.json was ignored/);
  });
});
