import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cleanCliEnvironment, cliEntry } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const DEADLINE_MS = 20_000;

/** Resolves once `check` holds (checked every 25 ms); rejects saying `what` never happened. */
async function until(check: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > DEADLINE_MS) throw new Error(`${what} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A closed window or a dropped ssh: the terminal (here util-linux `script`'s pseudo-terminal) goes
 * away while Sylvan waits at the prompt. In raw mode Ctrl-D is a key, so the input's end is the only
 * sign; Sylvan must leave by its own way out, so the SessionEnd hook runs, and then end.
 */
test('a terminal that hangs up at the prompt: Sylvan leaves by its own way out, the SessionEnd hook runs, and it ends', { timeout: 60_000 }, async () => {
  const workspace = tempWorkspace('sylvan-hang-up-');
  const home = join(workspace, '.sylvan-home');
  const marker = join(workspace, 'session-ended.json');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `cat > '${marker}'` }] }] } }));
  const env = { ...cleanCliEnvironment(workspace), SYLVAN_HOME: home, TERM: 'xterm-256color' };
  const terminal = spawn('script', ['-qfec', `${process.execPath} ${cliEntry}`, '/dev/null'], { cwd: workspace, env, stdio: ['pipe', 'pipe', 'ignore'] });
  let screen = '';
  terminal.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')));
  let cli: number | undefined;
  after(() => {
    if (cli !== undefined && alive(cli)) process.kill(cli, 'SIGKILL');
    if (terminal.exitCode === null) terminal.kill('SIGKILL');
  });
  await until(() => screen.includes('› '), 'the prompt');
  cli = Number(readFileSync(`/proc/${terminal.pid}/task/${terminal.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
  assert.ok(cli > 0 && alive(cli), 'Sylvan runs under the terminal');
  // One turn first: the session (and its hooks) is loaded once a turn has run.
  terminal.stdin.write('what is 2+3\r');
  await until(() => /context \d+% of/.test(screen), 'the first answer');
  terminal.stdin.write('half a question');
  await until(() => screen.includes('half a question'), 'the typed text');

  terminal.kill('SIGKILL');
  await until(() => existsSync(marker) && readFileSync(marker, 'utf8').endsWith('}'), 'the SessionEnd hook');
  assert.equal((JSON.parse(readFileSync(marker, 'utf8')) as { hook_event_name?: string }).hook_event_name, 'SessionEnd');
  const pid = cli;
  await until(() => !alive(pid), 'Sylvan ending after the hang-up');
});
