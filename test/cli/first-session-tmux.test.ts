import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { probeSandbox } from '../../src/sandbox/availability.ts';
import { startDashScopeServer, text, toolCalls, type Responder } from '../helpers/dashscope-server.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal, type Terminal } from '../helpers/terminal.ts';

// A newcomer's first session in a terminal (tmux), outside git: what the screen shows them.

const NEW_FILE = Array.from({ length: 13 }, (_, index) => `line ${index + 1} of the plan`).join('\n');

/** "write" creates plan.txt (13 lines), "run" runs a command; after a result, "done." */
const respond: Responder = (request) => {
  const last = request.body?.messages?.at(-1);
  if (last?.role !== 'user') return text('done.');
  switch (String(last.content)) {
    case 'write':
      return toolCalls([{ id: 'call_write', name: 'write_file', arguments: { path: 'plan.txt', content: `${NEW_FILE}\n` } }]);
    case 'run':
      return toolCalls([{ id: 'call_run', name: 'run_command', arguments: { command: 'echo ran > ran.txt' } }]);
    default:
      return text('done.');
  }
};

const sandbox = probeSandbox();

let terminal: Terminal | undefined;
let workspace = '';
after(() => terminal?.close());

async function session(): Promise<Terminal> {
  if (terminal) return terminal;
  workspace = tempWorkspace('sylvan-first-');
  const server = closeAtEnd(await startDashScopeServer({ respond }));
  terminal = await startTerminal({ cwd: workspace, env: { ...dashscopeEnv(server), SYLVAN_HOME: join(workspace, '.home'), SYLVAN_MAX_RETRIES: '0' }, columns: 100, rows: 30 });
  await terminal.expectScreen(/^›$/m, 'the first prompt');
  return terminal;
}

/** Types a line; resolves with the screen once `until` shows. */
async function say(line: string, until: RegExp, what: string): Promise<string> {
  const pane = await session();
  pane.type(`${line}\r`);
  return pane.expectScreen(until, what);
}

describe('a first session in a terminal', { timeout: 120_000 }, () => {
  test('after Ctrl-L, typing leaves no copies of the prompt in the scrollback', async () => {
    const pane = await session();
    pane.keys('C-l');
    await pane.expectScreen((screen) => screen.trimStart().startsWith('›'), 'the prompt at the top of a cleared screen');
    const before = (await pane.screen({ history: true })).split('\n').length;
    // Key by key, each one a redraw.
    for (const key of 'hello world') pane.type(key);
    await pane.expectScreen(/^› hello world$/m, 'the typed words');
    const history = await pane.screen({ history: true });
    assert.equal(history.split('\n').length, before, `the scrollback grew while typing:\n${history}`);
    assert.equal(history.split('› hello').length - 1, 1);
    pane.keys('C-u');
    await pane.expectScreen(/^›$/m, 'the prompt empty again');
  });

  test("a new file's approval offers to show the whole file, then asks again", async () => {
    const pane = await session();
    const asked = await say('write', /View it whole/, 'the approval menu');
    assert.match(asked, /│ line 10 of the plan\n {2}│ … 3 more lines\n/);
    assert.match(asked, /v {2}View it whole, then answer/);
    pane.type('v');
    const whole = await pane.expectScreen(/│ line 13 of the plan[\s\S]*Esc says no/, 'the whole file, and the question again');
    assert.doesNotMatch(whole.slice(whole.lastIndexOf('│ line 13')), /View it whole/, 'offered once');
    pane.type('n');
    await pane.expectScreen(/done\.\n[\s\S]*^›$/m, 'the answer after the no');
  });

  test('outside git, a command\'s approval says before it runs that what it changes cannot be undone', async () => {
    const pane = await session();
    const asked = await say('run', /Esc says no/, 'the command approval');
    const question = asked.slice(asked.lastIndexOf('$ echo ran'));
    assert.match(question, /not in a git work tree, so what commands change cannot be undone[\s\S]*run_command echo ran > ran\.txt\?/);
    pane.type('y');
    await pane.expectScreen(/done\.\n[\s\S]*^›$/m, 'the answer after the command');
  });

  test('/export onto an existing file asks with one key, and Enter keeps the file', async () => {
    const pane = await session();
    writeFileSync(join(workspace, 'notes.md'), 'mine\n');
    const asked = await say('/export notes.md', /Esc says no/, 'the overwrite question');
    assert.match(asked, /notes\.md exists\. Overwrite it\?\s*\n❯ n {2}No, keep it\n {2}y {2}Yes, overwrite it\n/);
    pane.keys('Enter');
    await pane.expectScreen(/Not exported\.\n[\s\S]*^›$/m, 'the file kept');
    assert.equal(readFileSync(join(workspace, 'notes.md'), 'utf8'), 'mine\n');
  });

  test('a !command the sandbox stopped says how to run it otherwise', { skip: sandbox.available ? false : `needs bubblewrap: ${sandbox.available ? '' : sandbox.reason}` }, async () => {
    const outside = `/var/tmp/sylvan-first-${process.pid}.txt`;
    const screen = await say(`!touch ${outside}`, /only the workspace is writable[\s\S]*^›$/m, 'the hint under the failed command');
    assert.match(screen, /Read-only file system/);
    // Wrapped between words at the width: read as one line.
    const hint = screen.slice(screen.lastIndexOf('Read-only file system')).replace(/\n +/g, ' ');
    assert.match(hint, /^Read-only file system Commands run in the sandbox: only the workspace is writable\. To write elsewhere, start Sylvan with --sandbox off \(\/sandbox tells more\)\.\n›$/m);
  });

  test('at 60 columns the footer keeps both ends, the / menu says how many more it holds and ↓ scrolls it, /tools breaks between names', async () => {
    const pane = await session();
    await pane.resize(60);
    await pane.keys('C-l');
    const footer = await pane.expectScreen(/^ask mode · shift\+tab to switch$/m, 'the footer fitted to 60 columns');
    assert.doesNotMatch(footer, /switc$/m);
    pane.type('/');
    const menu = await pane.expectScreen(/^ {2}… +\d+ more: ↑\/↓ scroll, or type to narrow/m, 'the / menu with its more row');
    const first = menu.split('\n').find((row) => /^ {2}\/\w/.test(row));
    pane.keys('Down');
    const scrolled = await pane.expectScreen((screen) => /1 above, \d+ more/.test(screen), 'the menu scrolled by one');
    assert.ok(first && !scrolled.includes(first), `the first command left the window:\n${scrolled}`);
    pane.keys('C-u');
    const tools = await say('/tools', /todo_write[\s\S]*^›$/m, 'the tool list');
    const listed = tools.slice(tools.lastIndexOf('› /tools'));
    for (const name of ['read_file', 'list_files', 'write_file', 'edit_file', 'run_command', 'todo_write']) {
      assert.match(listed, new RegExp(`\\b${name}\\b`), `${name} split across rows:\n${listed}`);
    }
  });
});
