import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startDashScopeServer, text } from '../helpers/dashscope-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { rmSync } from 'node:fs';
import { after } from 'node:test';

const ANSWER = Array.from({ length: 20_000 }, (_, index) => `line ${String(index).padStart(5, '0')} of the long answer`).join('\n');
const workspaces: string[] = [];
after(() => workspaces.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/**
 * Runs the CLI with a reader that does not read at first: it starts reading when the CLI exits or
 * after a second, whichever comes first. A CLI that exits before its output drained loses it.
 */
async function slowlyRead(args: string[], stdin: string): Promise<{ code: number | null; stdout: string }> {
  const server = closeAtEnd(await startDashScopeServer({ replies: [text(ANSWER, { chunkSize: 4_000 })] }));
  const cwd = tempWorkspace();
  workspaces.push(cwd);
  const running = startCli({ args, stdin, cwd, env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }) });
  running.child.stdout.pause();
  const resume = () => running.child.stdout.resume();
  const timer = setTimeout(resume, 1_000);
  running.child.on('exit', resume);
  const exited = await running.exited;
  clearTimeout(timer);
  return { code: exited.code, stdout: exited.stdout };
}

// On Node 22 (not 20, whose pipe writes block) v0.1 lost print output past what the pipe held.
describe('every byte of output reaches a slow pipe (issue 9, item 3)', { timeout: 60_000 }, () => {
  test('print mode: a 700 kB answer arrives whole', async () => {
    const { code, stdout } = await slowlyRead(['-p', 'long'], '');
    assert.equal(code, 0);
    assert.equal(stdout.length, ANSWER.length + 1, `${stdout.length} of ${ANSWER.length + 1} characters arrived`);
  });

  test('--json: every event line arrives, the last one is turn-end', async () => {
    const { code, stdout } = await slowlyRead(['-p', '--json', 'long'], '');
    assert.equal(code, 0);
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; text?: string });
    assert.equal(events.at(-1)?.type, 'turn-end');
    assert.equal(events.filter((event) => event.type === 'text-delta').map((event) => event.text).join(''), ANSWER);
  });

  test('a piped REPL: the whole answer arrives before it exits at the end of input', async () => {
    const { code, stdout } = await slowlyRead([], 'long\n');
    assert.equal(code, 0);
    assert.ok(stdout.includes(ANSWER), `${stdout.length} characters arrived`);
  });

  test('a reader that closes the pipe early (| head) ends Sylvan quietly with 0', async () => {
    const server = closeAtEnd(await startDashScopeServer({ replies: [text(ANSWER, { chunkSize: 4_000 })] }));
    const cwd = tempWorkspace();
    workspaces.push(cwd);
    const running = startCli({ args: ['-p', 'long'], stdin: '', cwd, env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }) });
    running.child.stdout.once('data', () => running.child.stdout.destroy());
    const exited = await running.exited;
    assert.equal(exited.code, 0, exited.stderr);
    assert.equal(exited.stderr, '');
  });
});
