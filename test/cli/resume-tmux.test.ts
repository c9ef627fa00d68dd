import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createSession } from '../../src/session/session-writer.ts';
import { contentText } from '../helpers/chat-requests.ts';
import { startDashScopeServer, text, toolCalls, type RecordedRequest } from '../helpers/dashscope-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { ask, startTerminal } from '../helpers/terminal.ts';

const workspaces: string[] = [];
after(() => workspaces.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const lastUser = (request: RecordedRequest) => contentText(request.body?.messages?.filter((message) => message.role === 'user').at(-1)?.content);
const lastRole = (request: RecordedRequest) => request.body?.messages?.at(-1)?.role;

/** A saved session of another day, written the way Sylvan writes one, last touched `ageMs` ago. */
function savedSession(home: string, cwd: string, question: string, answer: string, branch: string, ageMs: number): string {
  const writer = createSession({ home, cwd, provider: 'dashscope', model: 'qwen-plus', branch });
  writer.appendMessage({ role: 'user', content: question });
  writer.appendMessage({ role: 'assistant', content: answer });
  writer.close();
  const time = new Date(Date.now() - ageMs);
  utimesSync(writer.path, time, time);
  return writer.id;
}

test('a session cut by Esc mid-call, resumed through the picker: the transcript, no warning, Ctrl-R, Ctrl-G and /resume', { timeout: 120_000 }, async () => {
  const server = closeAtEnd(
    await startDashScopeServer({
      respond: (request) => {
        const question = lastUser(request);
        const fresh = lastRole(request) === 'user';
        if (question === 'first question') return text('Here is a **bold** answer.\n\n- one item\n- two item\n');
        if (question === 'what is 6*7?') return fresh ? toolCalls([{ name: 'calculate', arguments: { expression: '6*7' } }]) : text('It is **42**.');
        if (question === 'run two things' && fresh) {
          return toolCalls([
            { name: 'run_command', arguments: { command: 'sleep 30' } },
            { name: 'run_command', arguments: { command: 'echo second' } },
          ]);
        }
        return text(`You said: ${question}`);
      },
    }),
  );
  const cwd = tempWorkspace('sylvan-resume-');
  workspaces.push(cwd);
  execFileSync('git', ['init', '-q', '-b', 'resume-branch', cwd]);
  const home = join(cwd, '.sylvan-home');
  const editorLog = join(cwd, 'editor.log');
  const editor = join(cwd, 'editor.sh');
  // An editor that rewrites the file: what it was given, prefixed, and where and with which mode it was.
  writeFileSync(editor, `#!/bin/sh\nprintf '%s %s\\n' "$1" "$(stat -c %a "$1")" > '${editorLog}'\n{ printf 'edited: '; cat "$1"; } > "$1.new" && mv "$1.new" "$1"\n`);
  chmodSync(editor, 0o755);
  const env = dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0', EDITOR: editor });

  // 1. Three turns; the third is cut by Esc while its first command runs, before its second was asked about.
  const first = await startTerminal({ cwd, env, columns: 120, rows: 40 });
  await first.expectScreen(/^›/m, 'the first prompt');
  for (const [question, answered] of [['first question', /two item/], ['what is 6*7?', /It is 42\./]] as const) {
    ask(first, question);
    await first.expectScreen((screen) => answered.test(screen) && /· .* in · .* out[^\n]*\n›/.test(screen), `the answer to ${question}`);
  }
  ask(first, 'run two things');
  await first.expectScreen(/run_command sleep 30\?/, 'the question for the first command');
  first.type('y');
  await first.expectScreen(/run_command sleep 30\? Yes/, 'the first command approved');
  first.type('\x1b');
  await first.expectScreen(/■ Interrupted\./, 'the turn stopped by Esc');
  first.keys('C-d');
  assert.equal(await first.exited(), 0);
  await first.close();
  const [sessionFile] = readdirSync(join(home, 'sessions')).filter((name) => name.endsWith('.jsonl'));
  assert.ok(sessionFile, 'the session was saved');
  const sessionId = sessionFile.replace(/\.jsonl$/, '');
  const meta = JSON.parse(readFileSync(join(home, 'sessions', sessionFile), 'utf8').split('\n')[0] ?? '{}') as { branch?: string };
  assert.equal(meta.branch, 'resume-branch', 'the branch is recorded as the session starts');

  const parser = savedSession(home, cwd, '重构解析器 parser refactor', '好的。', 'feature/parser', 5 * 60_000 + 10_000);
  const login = savedSession(home, cwd, 'Fix the flaky login test', 'Done: the test waits for the page now.', 'main', 24 * 3600_000);

  // 2. --resume without an id: the picker, filtered as typed.
  const terminal = await startTerminal({ cwd, env, columns: 120, rows: 40, args: ['--resume'] });
  const listed = await terminal.expectScreen(/Resume a session ›[\s\S]*3 · type to filter/, 'the picker with three sessions');
  assert.match(listed, /❯ first question\s+just now · 3 turns · resume-branch/, `the newest first, marked:\n${listed}`);
  assert.match(listed, /^ {2}重构解析器 parser refactor\s+5 min ago · 1 turn · feature\/parser$/m);
  assert.match(listed, /^ {2}Fix the flaky login test\s+yesterday · 1 turn · main$/m);
  terminal.type('PARSER');
  const filtered = await terminal.expectScreen(/1 of 3 · type to filter/, 'the list filtered to one');
  assert.match(filtered, /❯ 重构解析器 parser refactor/);
  assert.doesNotMatch(filtered, /login|first question/);
  terminal.keys('C-u');
  terminal.type('解析');
  await terminal.expectScreen(/❯ 重构解析器[\s\S]*1 of 3/, 'a CJK filter');
  terminal.keys('C-u');
  await terminal.expectScreen(/❯ first question[\s\S]*3 · type to filter/, 'the filter cleared');
  terminal.keys('Down');
  await terminal.expectScreen(/❯ 重构解析器/, 'the mark moved down');
  terminal.keys('Up');
  await terminal.expectScreen(/❯ first question/, 'and back up');
  terminal.keys('Enter');

  // The earlier turns, drawn again: the lines typed, the answers rendered, the tool calls' summaries; no warning.
  const resumed = await terminal.expectScreen(new RegExp(`Resumed session ${sessionId} \\(3 earlier turns\\)\\.\\n›`), 'the resumed line and the prompt');
  assert.match(resumed, /^› first question$/m);
  assert.match(resumed, /^Here is a bold answer\.$/m, 'the markdown rendered, not shown as source');
  assert.match(resumed, /^• one item$/m);
  assert.match(resumed, /^› what is 6\*7\?$/m);
  assert.match(resumed, /^✓ calculate\(expression: "6\*7"\)$/m);
  assert.match(resumed, /^ {2}⎿ 6\*7 = 42$/m);
  assert.match(resumed, /^It is 42\.$/m);
  assert.match(resumed, /^› run two things$/m);
  assert.match(resumed, /^✗ run_command\(command: "sleep 30"\)$/m);
  assert.match(resumed, /^✗ run_command\(command: "echo second"\)\n {2}⎿ interrupted$/m);
  assert.doesNotMatch(resumed, /warning|did not finish/i, 'a call the user stopped is no warning');
  assert.ok(resumed.indexOf('› first question') < resumed.indexOf('› run two things'), 'in order');

  // Ctrl-R finds an earlier line; Enter sends it, as in bash.
  terminal.keys('C-r');
  terminal.type('6*7');
  await terminal.expectScreen(/^\(reverse-i-search\)'6\*7': what is 6\*7\?$/m, 'the search and its match');
  const before = server.requests.length;
  terminal.keys('Enter');
  await terminal.expectScreen((screen) => (screen.match(/It is 42\./g) ?? []).length >= 2 && /· .* in · .* out[^\n]*\n›/.test(screen), 'the found line sent and answered');
  assert.equal(lastUser(server.requests.at(-1)!), 'what is 6*7?');
  assert.ok(server.requests.length > before);

  // Ctrl-G: the input in $EDITOR; its text comes back into the buffer, not sent.
  const sent = server.requests.length;
  terminal.type('draft message');
  terminal.keys('C-g');
  await terminal.expectScreen(/^› edited: draft message$/m, "the editor's text in the input");
  const [path, mode] = readFileSync(editorLog, 'utf8').trim().split(' ');
  assert.equal(mode, '600', 'the temp file is private');
  assert.ok(path && !existsSync(path), 'the temp file is deleted afterwards');
  assert.equal(server.requests.length, sent, 'nothing was sent');

  // /resume switches to another session through the same picker.
  terminal.keys('C-u');
  ask(terminal, '/resume');
  await terminal.expectScreen(/Resume a session ›[\s\S]*2 · type to filter · ↑\/↓ Enter resumes · Esc stays in this session/, 'the picker, without the current session');
  terminal.type('login');
  await terminal.expectScreen(/❯ Fix the flaky login test[\s\S]*1 of 2/, 'filtered to the login session');
  terminal.keys('Enter');
  // The line about the session left comes last, after the resumed one is drawn: waited for, not raced.
  const switched = await terminal.expectScreen(new RegExp(`The session you left is saved: sylvan --resume ${sessionId}`), 'the other session resumed');
  assert.match(switched, new RegExp(`Resumed session ${login} \\(1 earlier turn\\)`));
  assert.match(switched, /^› Fix the flaky login test$/m);
  assert.match(switched, /^Done: the test waits for the page now\.$/m);
  ask(terminal, 'and now?');
  await terminal.expectScreen(/You said: and now\?/, 'a turn in the resumed session');
  const request = server.requests.at(-1)!;
  assert.deepEqual(
    request.body?.messages?.filter((message) => message.role !== 'system').map((message) => contentText(message.content)),
    ['Fix the flaky login test', 'Done: the test waits for the page now.', 'and now?'],
    'the model gets the resumed session',
  );
  assert.ok(parser);
  await terminal.close();
});
