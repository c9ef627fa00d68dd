import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readdirSync, readlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { hang, httpError, startDashScopeServer, text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';
import { withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startTerminal, type Terminal } from '../helpers/terminal.ts';

// A new user's terminal: 60 columns, colour, CJK. However a turn ended, the status line (spinner,
// "esc to cancel") must never be left on the screen or in the scrollback, and after exit nothing
// may follow the resume and token lines.

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]/g;
const USAGE = { usage: { promptTokens: 1200, completionTokens: 34 } };

async function session(respond: (index: number) => Reply, context: { after(fn: () => Promise<void>): void }, cwd = tempWorkspace()) {
  const server = closeAtEnd(await startDashScopeServer({ respond: (_request, index) => respond(index) }));
  const terminal = await startTerminal({
    cwd,
    env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }),
    columns: 60,
    rows: 24,
    colour: true,
  });
  context.after(() => terminal.close());
  await terminal.expect(/› /, 'the first prompt');
  return terminal;
}

function say(terminal: Terminal, line: string, next: RegExp, what: string): Promise<void> {
  const seen = terminal.expect(next, what);
  terminal.type(`${line}\r`);
  return seen;
}

/**
 * Ctrl-C twice at the prompt; then the token line is the last thing written, and no status line is
 * anywhere. `afterCtrlC`: the turn was stopped with Ctrl-C, and one more within a second of it
 * quits at once (a double press); on a machine slow enough to take longer, the hint comes first.
 */
async function assertCleanExit(terminal: Terminal, afterCtrlC = false): Promise<void> {
  const hintOrExit = terminal.expect(afterCtrlC ? /Press Ctrl-C again to exit|Session tokens: / : /Press Ctrl-C again to exit/, 'the exit hint');
  terminal.type('\x03');
  await hintOrExit;
  if (!afterCtrlC || !terminal.output.includes('Session tokens: ')) terminal.type('\x03');
  assert.equal(await terminal.exited(), 0);
  const output = terminal.output;
  const tokens = output.lastIndexOf('Session tokens: ');
  assert.ok(tokens > output.lastIndexOf('Resume this session: sylvan --resume '), `the resume line, then the token line:\n${JSON.stringify(output)}`);
  const after = output.slice(tokens).replace(/^[^\n]*\n/, '');
  assert.equal(after.replace(ESCAPES, '').replace(/[\r\n]/g, ''), '', `nothing is written after the token line: ${JSON.stringify(after)}`);

  const screen = await terminal.screen({ history: true });
  const rows = screen.split('\n').filter((row) => row.trim() !== '' && !row.startsWith('Pane is dead'));
  assert.match(rows.at(-1) ?? '', /^Session tokens: /, `the token line is the last row:\n${screen}`);
  assert.doesNotMatch(screen, SPINNER, `no spinner frame on the screen or in the scrollback:\n${screen}`);
  assert.doesNotMatch(screen, /esc to cancel/, `no status line on the screen or in the scrollback:\n${screen}`);
}

describe('leaving the REPL after a turn, on a 60-column terminal', { timeout: 400_000 }, () => {
  test('after CJK turns with a tool call, the token line is the last thing on the screen', { timeout: 90_000 }, async (context) => {
    const terminal = await session(
      (index) =>
        [
          toolCalls([{ name: 'calculate', arguments: { expression: '(2+3)*4' } }]),
          text('(2+3)*4 等于 20。先算括号里的 2+3 得 5，再乘以 4，结果是二十，这一行足够长会折行显示。', { ...USAGE, chunkSize: 4 }),
          text('北京今天晴，气温 12°C，西北风三级，适合出门散步，但早晚温差较大，记得带一件外套。', { ...USAGE, chunkSize: 4 }),
        ][index] ?? text('好的。'),
      context,
    );
    await say(terminal, '(2+3)*4 等于多少？', /· [\d,]+ in · [\d,]+ out[\s\S]*› /, 'the first answer and its usage line');
    await say(terminal, '北京今天天气怎么样？', /· [\d,]+ in · [\d,]+ out[\s\S]*› /, 'the second answer and its usage line');
    await assertCleanExit(terminal);
  });

  test('a turn stopped by Esc leaves no status line behind', { timeout: 90_000 }, async (context) => {
    const terminal = await session((index) => (index === 0 ? hang({ headers: true, text: '这是一个很长的回答的开头' }) : text('好的。')), context);
    await say(terminal, '讲个故事', /回答的开头/, 'the start of the answer');
    const stopped = terminal.expect(/Interrupted[\s\S]*› /, 'Esc stopping the turn');
    terminal.type('\x1b');
    await stopped;
    await assertCleanExit(terminal);
  });

  test('a turn stopped by Ctrl-C while waiting for the first token leaves no status line behind', { timeout: 90_000 }, async (context) => {
    const terminal = await session(() => hang({ headers: true }), context);
    await say(terminal, '你好', /esc to cancel/, 'the status line while waiting');
    const stopped = terminal.expect(/Interrupted[\s\S]*› /, 'Ctrl-C stopping the turn');
    terminal.type('\x03');
    await stopped;
    await assertCleanExit(terminal, true);
  });

  test('a turn that ends in an error leaves no status line behind', { timeout: 90_000 }, async (context) => {
    const terminal = await session((index) => (index === 0 ? httpError(500) : text('好的。', USAGE)), context);
    await say(terminal, '你好', /✗[^\n]*[\s\S]*› /, 'the error line');
    await say(terminal, '再试一次', /好的。[\s\S]*› /, 'the next answer');
    await assertCleanExit(terminal);
  });

  test('an approval question is never drawn over by the status line, answered or said no to with Esc', { timeout: 90_000 }, async (context) => {
    const write = (path: string) => toolCalls([{ name: 'write_file', arguments: { path, content: '你好\n' } }]);
    const terminal = await session((index) => [write('a.txt'), text('没有写。', USAGE), write('b.txt')][index] ?? text('好的。', USAGE), context);
    // The menu's last row is what the editor draws last.
    const question = /Esc says no\)/;
    await say(terminal, '写 a.txt', question, 'the first approval question');
    await say(terminal, 'n', /没有写。[\s\S]*› /, 'the answer after no');
    await say(terminal, '写 b.txt', question, 'the second approval question');
    const denied = terminal.expect(/好的。[\s\S]*› /, 'Esc at the question saying no, and the turn going on');
    terminal.type('\x1b');
    await denied;
    const output = terminal.output;
    // From each question to the key that answered it, nothing was drawn: no spinner frame over it.
    for (const asked of output.matchAll(/Esc says no\)/g)) {
      const rest = output.slice(asked.index + asked[0].length);
      const answered = rest.search(/n|\r\n/);
      assert.doesNotMatch(rest.slice(0, answered), SPINNER, `a spinner frame drew over the question: ${JSON.stringify(rest.slice(0, 200))}`);
    }
    await assertCleanExit(terminal);
  });

  test('an approval still being prepared when Esc stops the turn is never asked later, and brings no spinner back', { timeout: 90_000 }, async (context) => {
    // The question's preview reads the file it would overwrite: a named pipe holds that read until
    // the test writes to it, so Esc lands while the question is being prepared, every time.
    const cwd = tempWorkspace();
    const fifo = join(cwd, 'slow.txt');
    execFileSync('mkfifo', [fifo]);
    const terminal = await session(
      (index) => (index === 0 ? toolCalls([{ name: 'write_file', arguments: { path: 'slow.txt', content: '新内容\n' } }]) : text('还在这里。', USAGE)),
      context,
      cwd,
    );
    terminal.type('写 slow.txt\r');
    const writer = await withDeadline(openedForReading(fifo), 60_000, 'the approval preview to open slow.txt');
    const stopped = terminal.expect(/Interrupted[\s\S]*› /, 'Esc stopping the turn');
    terminal.type('\x1b');
    await stopped;
    writeSync(writer, '旧内容\n');
    closeSync(writer);
    await withDeadline(closedBy(terminal.pid, fifo), 60_000, 'the preview to finish reading slow.txt');
    // The prompt is still the prompt: a question that came late would take this line as its answer.
    await say(terminal, '你还在吗', /还在这里。[\s\S]*› /, 'the next answer');
    const output = terminal.output;
    assert.equal(output.match(/\[y\]es \/ \[n\]o/g)?.length ?? 0, 0, `no question was asked after the turn ended: ${JSON.stringify(output)}`);
    const interrupted = output.indexOf('Interrupted');
    assert.doesNotMatch(output.slice(interrupted, output.indexOf('你还在吗', interrupted)), SPINNER, 'no spinner frame at the prompt after the turn ended');
    await assertCleanExit(terminal);
  });
});

/** Resolves with a write end of `fifo` once someone has it open for reading. */
async function openedForReading(fifo: string): Promise<number> {
  while (true) {
    try {
      return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      // ENXIO: no reader yet.
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** Resolves once process `pid` no longer holds `path` open. */
async function closedBy(pid: number, path: string): Promise<void> {
  const holds = () => readdirSync(`/proc/${pid}/fd`).some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
    } catch {
      return false;
    }
  });
  while (holds()) await new Promise((resolve) => setTimeout(resolve, 25));
}
