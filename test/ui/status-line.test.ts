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
        await new Promise((resolve) => setTimeout(resolve, 20));
      } catch {
        alive = false;
      }
    }
    assert.equal(alive, false, 'the sleep it started was killed');
  });

  test('runs at most every 300 ms however often it is asked, with the input asked for last', async () => {
    // Each run logs when it started (ms) and its input; asked every 5 ms for a second, it may run about 4 times.
    writeFileSync(join(folder, 'log.sh'), 'echo "$(date +%s%3N) $(cat)" >> runs.log; echo row\n');
    const line = new StatusLine({ command: 'sh log.sh', cwd: folder, timeoutMs: 5_000, onChange: () => {} });
    let asked = 0;
    const asking = setInterval(() => line.refresh(() => ({ asked: ++asked })), 5);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    clearInterval(asking);
    line.close();
    const runs = readFileSync(join(folder, 'runs.log'), 'utf8').trim().split('\n').map((row) => row.split(' '));
    assert.ok(runs.length >= 1 && runs.length <= 4, `${runs.length} runs`);
    const starts = runs.map(([ms]) => Number(ms));
    // Logged when each shell got going, so a slow start under load may shorten one gap; 300 ms apart when asked.
    for (let index = 1; index < starts.length; index++) assert.ok(starts[index]! - starts[index - 1]! >= 100, `runs ${starts.join(', ')}`);
    // A run reads the input as it is when it starts: the latest asked for, not the first.
    assert.ok(runs.slice(1).every(([, input]) => JSON.parse(input!).asked > 1));
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
