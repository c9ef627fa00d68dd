import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { toolResultText } from '../helpers/chat-requests.ts';
import { startDashScopeServer, text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startTerminal } from '../helpers/terminal.ts';

const workspaces: string[] = [];
after(() => workspaces.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const KEY = 'sk-tool-output-secret-0123';
const CTRL_O = '\x0f';
const NINE = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** The model's move for each thing the user asks; after a tool result it just says it is done. */
const replies: Record<string, Reply> = {
  search: toolCalls([{ id: 'call_search', name: 'search_files', arguments: { pattern: 'needle', path: 'notes' } }]),
  long: toolCalls([{ id: 'call_long', name: 'run_command', arguments: { command: `seq 1 300 | sed 's/^/row /'; echo 'the key is ${KEY}'` } }]),
  tick: toolCalls([{ id: 'call_tick', name: 'run_command', arguments: { command: 'for i in $(seq 1 600); do echo "tick $i"; sleep 0.1; done' } }]),
};

test('tool output in a terminal: search matches inline, Ctrl+O to expand and collapse, a long output kept in a file, a stopped command keeps its last lines', { timeout: 120_000 }, async () => {
  const server = closeAtEnd(
    await startDashScopeServer({
      respond: (request) => {
        const last = request.body?.messages?.at(-1);
        if (last?.role === 'tool') return text(`Done with ${last.tool_call_id}.`);
        return Object.entries(replies).find(([word]) => String(last?.content).includes(word))?.[1] ?? text('?');
      },
    }),
  );
  const cwd = tempWorkspace();
  workspaces.push(cwd);
  // Nine matching files; the first one's line carries an escape sequence that must not act.
  mkdirSync(join(cwd, 'notes'));
  NINE.forEach((word, index) => writeFileSync(join(cwd, 'notes', `${String.fromCharCode(97 + index)}.txt`), `needle ${index === 0 ? '\u001b]0;owned\u0007' : ''}${word}\n`));
  const terminal = await startTerminal({
    cwd,
    env: dashscopeEnv(server, { DASHSCOPE_API_KEY: KEY, SYLVAN_MAX_RETRIES: '0' }),
    columns: 120,
    rows: 40,
    args: ['--yes', '--sandbox', 'off'],
  });
  try {
    await terminal.expectScreen(/^›/m, 'the first prompt');

    // 1. A search shows its first matching lines, sanitised, and how many more.
    terminal.type('search for the needle\r');
    const searched = await terminal.expectScreen(/Done with call_search\.[\s\S]*^›/m, 'the search and its answer');
    assert.match(searched, /⎿ 9 matches for \/needle\/ in notes:\n {4}notes\/a\.txt:1: needle ␛]0;owned␇one\n {4}notes\/b\.txt:1: needle two\n {4}notes\/c\.txt:1: needle three\n {4}notes\/d\.txt:1: needle four\n {4}\(\+5 more, ctrl\+o to expand\)/);
    assert.doesNotMatch(searched, /needle nine/);

    // 2. Ctrl+O shows the lines the collapsed result hid; again, and they are gone.
    terminal.type(CTRL_O);
    const expanded = await terminal.expectScreen(/ctrl\+o to collapse[\s\S]*needle nine\n›/, 'the search expanded above the prompt');
    assert.match(expanded, /⎿ search_files\(pattern: "needle", path: "notes"\) · 10 lines · ctrl\+o to collapse\n {2}9 matches/);
    terminal.type(CTRL_O);
    await terminal.expectScreen((screen) => !screen.includes('needle nine') && /^›$/m.test(screen), 'the search collapsed again');

    // 3. A result longer than the screen: its file's path is shown, and the file holds all of it, the key redacted.
    terminal.type('a long listing\r');
    await terminal.expectScreen(/Done with call_long\.[\s\S]*^›/m, 'the long command and its answer');
    const screen = await terminal.screen();
    assert.match(screen, /│ row 300\n {2}│ the key is \[redacted\]\n {2}⎿ exit code 0 \(\+297 lines, ctrl\+o to expand\)\n {4}full output: /);
    const path = /full output: (\S+?\.txt)/.exec(terminal.output.replace(/\r?\n/g, ''))?.[1];
    assert.ok(path !== undefined && path.includes(join('.sylvan-home', 'sessions')) && path.includes('tool-output'), `a file in the session folder: ${path}`);
    const saved = readFileSync(path, 'utf8');
    assert.equal(saved, toolResultText(server.requests.at(-1)!, 'call_long'), 'the file holds the result the model read');
    assert.match(saved, /^exit code 0 \([\d.]+ s\)\nstdout:\nrow 1\nrow 2\n[\s\S]*\nrow 300\nthe key is \[redacted\]$/);
    assert.ok(!saved.includes(KEY) && !terminal.output.includes(KEY), 'the key is in neither the file nor on screen');
    terminal.type(CTRL_O);
    await terminal.expectScreen(/… 2\d\d more lines; all of it is in\n {4}\S/, 'the expanded head and the way to the rest');
    terminal.type(CTRL_O);
    await terminal.expectScreen((shown) => !shown.includes('all of it is in'), 'collapsed again');

    // 4. A command stopped with Esc keeps the last lines it showed and says how long it ran. While it
    //    runs, Ctrl+O shows the last finished result (the listing) above the status line, and hides it.
    terminal.type('tick for a while\r');
    // Any window of four ticks from the fourth on: each shows for 0.1 s, which a loaded machine's
    // screen reads can miss (one run waited for "tick 3" on top while ticks 509–512 were shown).
    await terminal.expectScreen(/esc to cancel\)\n {2}tick (?:[3-9]|\d{2,})\n/, 'the command running, its output live');
    terminal.type(CTRL_O);
    await terminal.expectScreen(/ctrl\+o to collapse\n {2}exit code 0[\s\S]*esc to cancel/, 'the listing expanded during the turn');
    terminal.type(CTRL_O);
    const running = await terminal.expectScreen((shown) => !shown.includes('ctrl+o to collapse') && /esc to cancel\)\n {2}tick \d+\n/.test(shown), 'collapsed, still running');
    const lastSeen = Math.max(...[...running.matchAll(/tick (\d+)/g)].map((match) => Number(match[1])));
    terminal.type('\x1b');
    const stopped = await terminal.expectScreen(/■ Interrupted\.[\s\S]*^›/m, 'the interrupt');
    const kept = /(?: {2}│ tick (\d+)\n){4} {2}⎿ interrupted after \d+\.\d s\n■ Interrupted\./.exec(stopped);
    assert.ok(kept, `the last four lines and how it ended:\n${stopped}`);
    const ticks = [...kept[0].matchAll(/tick (\d+)/g)].map((match) => Number(match[1]));
    assert.deepEqual(ticks, [0, 1, 2, 3].map((step) => ticks[0]! + step), 'four lines in a row');
    assert.ok(ticks[3]! >= lastSeen, `the kept lines are the latest (${ticks.join(', ')}; ${lastSeen} was shown before Esc)`);
  } finally {
    await terminal.close();
  }
});
