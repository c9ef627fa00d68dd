import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { alive } from '../helpers/children.ts';
import { eventually } from '../helpers/deadline.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startTerminalAtPrompt, type Terminal } from '../helpers/terminal.ts';

const panes: Terminal[] = [];
const workspaces: string[] = [];
after(async () => {
  for (const pane of panes) await pane.close();
  for (const folder of workspaces) rmSync(folder, { recursive: true, force: true });
});

/** A workspace whose $SYLVAN_HOME/settings.json runs `script` as the status line. */
function workspaceWithStatusLine(script: string, timeout?: number): { cwd: string; home: string } {
  const cwd = tempWorkspace('sylvan-status-line-');
  workspaces.push(cwd);
  const home = join(cwd, '.sylvan-home');
  mkdirSync(home);
  const file = join(cwd, 'status.sh');
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ statusLine: { type: 'command', command: file, ...(timeout && { timeout }) } }));
  return { cwd, home };
}

test('the status line command reads the session as JSON and its first line replaces the row under the prompt', { timeout: 60_000 }, async () => {
  // Keeps each input it is given; prints two lines, of which the first is shown (its escape sequence sanitised).
  const { cwd } = workspaceWithStatusLine(`cat > "$(dirname "$0")/input-$$.json"\nprintf 'my status \\033[31mred\\033[0m\\nsecond line\\n'`);
  const pane = await startTerminalAtPrompt({ cwd, env: { SYLVAN_MOCK_DELAY_MS: '0' }, columns: 100, rows: 30 });
  panes.push(pane);
  await pane.expectScreen((screen) => /^›.*\n {0,2}my status red$/m.test(screen), 'the status row under the prompt');
  pane.type('(2+3)*4 等于多少？');
  pane.keys('Enter');
  await pane.expectScreen((screen) => /· .* in · .* out/.test(screen) && /^›.*\n {0,2}my status red$/m.test(screen.slice(screen.lastIndexOf('·'))), 'the row again under the next prompt');
  const { readdirSync } = await import('node:fs');
  // The run after the first turn has the loaded session.
  await eventually(() => readdirSync(cwd).filter((name) => name.startsWith('input-')).some((name) => readFileSync(join(cwd, name), 'utf8').includes('session_id')), 10_000, 'an input with the session');
  const inputs = readdirSync(cwd)
    .filter((name) => name.startsWith('input-'))
    .map((name) => JSON.parse(readFileSync(join(cwd, name), 'utf8')) as Record<string, any>);
  const input = inputs.find((candidate) => candidate.session_id !== undefined)!;
  assert.equal(input.hook_event_name, 'Status');
  assert.equal(input.model.id, 'mock');
  assert.equal(input.workspace.current_dir, cwd);
  assert.equal(input.cwd, cwd);
  assert.equal(input.mode, 'ask');
  assert.match(input.transcript_path, /\.jsonl$/);
  assert.equal(typeof input.cost.total_duration_ms, 'number');
  assert.ok(input.context_window.total_input_tokens > 0, JSON.stringify(input.context_window));
  assert.equal(input.context_window.context_window_size, 32_768);
  assert.equal(typeof input.context_window.used_percentage, 'number');
  assert.ok(!pane.output.includes('second line'), 'only the first line is shown');
});

test('a status line command that hangs is killed after its timeout, and the prompt answers meanwhile', { timeout: 60_000 }, async () => {
  const { cwd } = workspaceWithStatusLine(`echo $$ > "$(dirname "$0")/hung.pid"\nexec sleep 60`, 300);
  const pane = await startTerminalAtPrompt({ cwd, env: { SYLVAN_MOCK_DELAY_MS: '0' }, columns: 100, rows: 30 });
  panes.push(pane);
  // The prompt keeps the mode row while the command runs, and takes a question at once.
  pane.type('(2+3)*4 等于多少？');
  pane.keys('Enter');
  await pane.expectScreen((screen) => /· .* in · .* out/.test(screen), 'the answer while the status command hangs');
  const pidFile = join(cwd, 'hung.pid');
  await eventually(() => existsSync(pidFile), 10_000, 'the status command started');
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  await eventually(() => !alive(pid), 10_000, `the hung status command (pid ${pid}) killed`);
});
