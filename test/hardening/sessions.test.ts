import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli, runCliTimed, startCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text } from '../helpers/dashscope-server.ts';

const sessionsOf = (home: string) => join(home, 'sessions');
const jsonlFiles = (home: string) => readdirSync(sessionsOf(home)).filter((name) => name.endsWith('.jsonl'));

/** Every line of a transcript is whole JSON: nothing torn, nothing interleaved. */
function assertWholeLines(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
  for (const [index, line] of lines.entries()) assert.doesNotThrow(() => JSON.parse(line), `line ${index + 1} of ${file} is torn`);
  return lines;
}

describe('the session is saved, or the user is told (issue 9, item 4)', { timeout: 90_000 }, () => {
  test('an unusable sessions folder: one line, the conversation goes on, /sessions and --continue say why', async () => {
    const cwd = tempWorkspace();
    const home = join(cwd, 'home');
    mkdirSync(home);
    writeFileSync(sessionsOf(home), 'a file where the sessions folder should be');
    const env = { SYLVAN_HOME: home };
    const repl = await runCli({ inProcess: true, cwd, env, stdin: '(2+3)*4 等于多少？\n1+1 等于多少？\n/sessions\n' });
    assert.equal(repl.code, 0, repl.stderr);
    assert.equal(repl.stdout.match(/sessions are not being saved: /g)?.length, 1, repl.stdout);
    assert.match(repl.stdout, /= 20/);
    assert.match(repl.stdout, /= 2\b/);
    assert.match(repl.stdout, /No sessions can be listed or saved: .*sessions is not a folder/);
    const resumed = await runCli({ inProcess: true, cwd, env, args: ['-c', '-p', '1+1 等于多少？'] });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /No earlier session can be found: .*not a folder/);
    assert.match(resumed.stderr, /sessions are not being saved/);
  });

  test('a full disk (a 256 kB tmpfs) leaves no torn line, says so once, and the conversation goes on', async (context) => {
    if (process.getuid?.() !== 0) return context.skip('needs root to mount a small tmpfs');
    const cwd = tempWorkspace();
    const home = join(cwd, 'small-disk');
    mkdirSync(home);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', home]);
    } catch {
      return context.skip('mount -t tmpfs is not allowed here');
    }
    try {
      mkdirSync(sessionsOf(home));
      // Leave about 40 kB free: the first answer fits, the 120 kB second one cannot. It streams in
      // 8 kB pieces: in DashScope's few characters a piece it would be 20,000 events, ~3 s of CPU.
      writeFileSync(join(home, 'filler'), Buffer.alloc(256 * 1024 - 40 * 1024));
      const { result } = await runCli({ server: { replies: [text('short answer'), text('x'.repeat(120_000), { chunkSize: 8_192 }), text('third answer')] }, key: 'sk-full-disk-test-0001', cwd, env: { SYLVAN_HOME: home }, stdin: 'one\ntwo\nthree\n' });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.match(/sessions are not being saved: .*full/g)?.length, 1, result.stdout.slice(-2000));
      assert.match(result.stdout, /third answer/);
      const [file] = jsonlFiles(home);
      assert.ok(file, 'no session file');
      const lines = assertWholeLines(join(sessionsOf(home), file));
      assert.ok(lines.some((line) => line.includes('short answer')));
    } finally {
      execFileSync('umount', ['-l', home]);
    }
  });

  test('two processes continuing the same session at once: the second starts a new one and says so', async () => {
    const cwd = tempWorkspace();
    const first = await runCli({ inProcess: true, cwd, args: ['-p', '(2+3)*4 等于多少？'] });
    assert.equal(first.code, 0, first.stderr);
    const home = join(cwd, '.sylvan-home');
    const [original] = jsonlFiles(home);
    assert.ok(original);

    const holder = startCli({ cwd, args: ['-c'], killAfterMs: 30_000 });
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the first -c never said it resumed:\n${seen}`)), 20_000);
      holder.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        seen += chunk;
        if (/Resumed session/.test(seen)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const second = await runCli({ cwd, args: ['-c', '-p', '1+1 等于多少？'] });
    holder.child.stdin.end('2+2 等于多少？\n');
    const held = await holder.exited;
    assert.equal(held.code, 0, held.stderr);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /is open in another Sylvan \(process \d+\); starting a new session/);
    const files = jsonlFiles(home);
    assert.equal(files.length, 2, files.join(', '));
    const lines = assertWholeLines(join(sessionsOf(home), original));
    assert.ok(lines.some((line) => line.includes('2+2')), 'the holder did not append');
    assert.ok(!lines.some((line) => line.includes('1+1')), 'the second process appended to the held session');
    assert.deepEqual(readdirSync(sessionsOf(home)).filter((name) => name.endsWith('.lock')), [], 'a lock file was left');
  });
});

describe('a bad SYLVAN_HOME and bad session parts (issue 9, item 12)', { timeout: 60_000 }, () => {
  test('a SYLVAN_HOME that cannot be created: one line, exit 2, at once', async () => {
    const cwd = tempWorkspace();
    writeFileSync(join(cwd, 'a-file'), '');
    for (const home of ['/proc/nope', join(cwd, 'a-file', 'home')]) {
      const result = await runCliTimed({ cwd, env: { SYLVAN_HOME: home }, args: ['-p', 'hello'], killAfterMs: 15_000 });
      assert.equal(result.killedBySafetyNet, false, `${home}: hung`);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, /SYLVAN_HOME .* cannot be created/);
      // Node and tsx start in about a second on this machine; the check itself is immediate.
      assert.ok(result.elapsedMs < 5_000, `${Math.round(result.elapsedMs)} ms`);
    }
  });

  test('a session line with an image at file:///etc/passwd is skipped with a warning, never fatal', async () => {
    const cwd = tempWorkspace();
    const first = await runCli({ inProcess: true, cwd, args: ['-p', '(2+3)*4 等于多少？'] });
    assert.equal(first.code, 0, first.stderr);
    const home = join(cwd, '.sylvan-home');
    const [file] = jsonlFiles(home);
    assert.ok(file);
    const hostile = { type: 'message', message: { role: 'user', content: [{ type: 'image', image: 'file:///etc/passwd' }] } };
    writeFileSync(join(sessionsOf(home), file), `${readFileSync(join(sessionsOf(home), file), 'utf8')}${JSON.stringify(hostile)}\n`);
    const resumed = await runCli({ inProcess: true, cwd, args: ['-c', '-p', '1+1 等于多少？'] });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /warning: session \S+: line \d+ is damaged and was skipped/);
    assert.match(resumed.stdout, /2/);
  });
});
