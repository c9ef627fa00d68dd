import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cleanCliEnvironment, cliEntry } from '../helpers/cli.ts';
import { alive } from '../helpers/children.ts';
import { eventually } from '../helpers/deadline.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const DEADLINE_MS = 20_000;

/** The processes running `sleep 31.7`, read from /proc. */
function sleeping(): string[] {
  return readdirSync('/proc').filter((entry) => {
    try {
      return /^\d+$/.test(entry) && readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim() === 'sleep 31.7';
    } catch {
      return false;
    }
  });
}

interface UnderTerminal {
  terminal: ReturnType<typeof spawn>;
  screen: () => string;
  cli: number;
  /** What the SessionEnd hook was given, once it ran. */
  ended: () => { hook_event_name?: string; reason?: string } | undefined;
  /** Resolves with how `script` ended: with -e it passes on how Sylvan ended (128 + a signal). */
  exited: Promise<number | null>;
}

/** Sylvan at its prompt in util-linux `script`'s pseudo-terminal, with a SessionEnd hook that writes its input to a file. */
async function startUnderTerminal(): Promise<UnderTerminal> {
  const workspace = tempWorkspace('sylvan-hang-up-');
  const home = join(workspace, '.sylvan-home');
  const marker = join(workspace, 'session-ended.json');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `cat > '${marker}.part' && mv '${marker}.part' '${marker}'` }] }] } }));
  const env = { ...cleanCliEnvironment(workspace), SYLVAN_HOME: home, TERM: 'xterm-256color' };
  const terminal = spawn('script', ['-qfec', `${process.execPath} ${cliEntry}`, '/dev/null'], { cwd: workspace, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise<number | null>((resolve) => terminal.on('exit', (code) => resolve(code)));
  let screen = '';
  terminal.stdout!.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')));
  let cli: number | undefined;
  after(() => {
    if (cli !== undefined && alive(cli)) process.kill(cli, 'SIGKILL');
    if (terminal.exitCode === null) terminal.kill('SIGKILL');
  });
  await eventually(() => screen.includes('› '), DEADLINE_MS, 'the prompt');
  cli = Number(readFileSync(`/proc/${terminal.pid}/task/${terminal.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
  assert.ok(cli > 0 && alive(cli), 'Sylvan runs under the terminal');
  // One turn first: the session (and its hooks) is loaded once a turn has run.
  terminal.stdin!.write('what is 2+3\r');
  await eventually(() => /context \d+% of/.test(screen), DEADLINE_MS, 'the first answer');
  const ended = () => (existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as { hook_event_name?: string; reason?: string }) : undefined);
  return { terminal, screen: () => screen, cli, ended, exited };
}

/**
 * A closed window or a dropped ssh: the terminal goes away while Sylvan waits at the prompt. Sylvan
 * gets SIGHUP and the end of its input together, in either order; in raw mode Ctrl-D is a key, so
 * the input's end is no exit by itself. Either way Sylvan must leave by its own way out (the
 * SessionEnd hook runs), then end.
 */
test('a terminal that hangs up at the prompt: Sylvan leaves by its own way out, the SessionEnd hook runs, and it ends', { timeout: 60_000 }, async () => {
  const { terminal, screen, cli, ended } = await startUnderTerminal();
  terminal.stdin!.write('half a question');
  await eventually(() => screen().includes('half a question'), DEADLINE_MS, 'the typed text');

  terminal.kill('SIGKILL');
  await eventually(() => ended() !== undefined, DEADLINE_MS, 'the SessionEnd hook');
  assert.deepEqual({ ...ended() }, { ...ended(), hook_event_name: 'SessionEnd', reason: 'other' });
  await eventually(() => !alive(cli), DEADLINE_MS, 'Sylvan ending after the hang-up');
});

/**
 * SIGHUP alone, in the middle of a turn, with the terminal still there (as `kill -HUP` or a
 * terminal that signals before it closes): the turn is stopped, the SessionEnd hook runs, and Sylvan
 * ends by SIGHUP, not by an abort while resetting a terminal it no longer needs.
 */
test('SIGHUP mid-turn: the turn stops, the SessionEnd hook runs, and Sylvan ends by SIGHUP', { timeout: 60_000 }, async () => {
  const { terminal, screen, cli, ended, exited } = await startUnderTerminal();
  // A shell line still running when the signal comes; its odd length names its process.
  terminal.stdin!.write('!sleep 31.7\r');
  await eventually(() => screen().includes('sleep 31.7') && sleeping().length > 0, DEADLINE_MS, 'the command running');
  process.kill(cli, 'SIGHUP');
  await eventually(() => ended() !== undefined, DEADLINE_MS, 'the SessionEnd hook');
  assert.equal(ended()?.reason, 'other');
  assert.equal(await exited, 128 + 1, 'script passes on that Sylvan ended by SIGHUP (signal 1)');
  await eventually(() => sleeping().length === 0, DEADLINE_MS, 'the shell line ending with Sylvan');
});
