import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { startDashScopeServer, text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { ask, startTerminalAtPrompt } from '../helpers/terminal.ts';

const workspaces: string[] = [];
after(() => workspaces.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const SHIFT_TAB = '\x1b[Z';
/** Any sign of an approval question on screen: the menu or the line question. */
const QUESTION = /❯ y {2}Yes|\[y\]es/;

/** Sylvan's REPL in tmux against a loopback DashScope scripted by `replies` (the last repeats). */
async function replInTmux(replies: Reply[], options: { args?: string[]; colour?: boolean; files?: Record<string, string> } = {}) {
  const server = closeAtEnd(await startDashScopeServer({ respond: (_request, index) => replies[Math.min(index, replies.length - 1)]! }));
  const cwd = tempWorkspace();
  workspaces.push(cwd);
  for (const [name, content] of Object.entries(options.files ?? {})) writeFileSync(join(cwd, name), content);
  const terminal = await startTerminalAtPrompt(
    { cwd, env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }), columns: 120, args: options.args, colour: options.colour ?? true },
    /^›|^\w[\w-]* ›/m,
  );
  return { server, cwd, terminal };
}

const toolNames = (request: ReturnType<typeof requestAt>) => (request.body?.tools ?? []).map((tool) => tool.function.name);
const callId = (request: ReturnType<typeof requestAt>) =>
  request.body?.messages?.find((message) => message.role === 'assistant' && message.tool_calls)?.tool_calls?.[0]?.id ?? '';

describe('approval modes in a terminal', { timeout: 120_000 }, () => {
  test('Shift+Tab cycles ask → auto-edit → plan → ask; the status row under the prompt and the prompt show each', { timeout: 60_000 }, async () => {
    const { terminal } = await replInTmux([text('ok')]);
    try {
      await terminal.expectScreen(/^› *\n\s*ask mode · edits, commands/m, 'ask mode under the prompt');
      terminal.type(SHIFT_TAB);
      await terminal.expectScreen(/^auto-edit › *\n\s*auto-edit mode · file edits in the workspace apply without asking/m, 'auto-edit');
      terminal.type(SHIFT_TAB);
      await terminal.expectScreen(/^plan › *\n\s*plan mode · read-only/m, 'plan');
      terminal.type(SHIFT_TAB);
      await terminal.expectScreen(/^› *\n\s*ask mode/m, 'back to ask');
      terminal.type('/mode plan');
      terminal.keys('Enter');
      await terminal.expectScreen(/plan mode: read-only[\s\S]*^plan › *$/m, '/mode plan');
    } finally {
      await terminal.close();
    }
  });

  test('plan mode: the request offers no write or command tool, the model is told it plans, and a write tried anyway is refused without a question', { timeout: 60_000 }, async () => {
    const { server, cwd, terminal } = await replInTmux([
      toolCalls([{ name: 'write_file', arguments: { path: 'plan.txt', content: 'changed\n' } }]),
      text('Plan: 1. change plan.txt. Switch mode and say "go".'),
    ]);
    try {
      terminal.type(SHIFT_TAB);
      terminal.type(SHIFT_TAB);
      await terminal.expectScreen(/^plan › *$/m, 'plan mode');
      ask(terminal, 'make a plan');
      await terminal.expectScreen(/Switch mode and say "go"[\s\S]*^plan › *$/m, 'the plan');
      assert.doesNotMatch(await terminal.screen({ history: true }), QUESTION, 'nobody was asked');
      const first = requestAt(server, 0);
      const offered = toolNames(first);
      for (const refused of ['write_file', 'edit_file', 'run_command']) assert.ok(!offered.includes(refused), `${refused} offered: ${offered.join(', ')}`);
      assert.ok(offered.includes('read_file') && offered.includes('search_files'), offered.join(', '));
      assert.match(String(first.body?.messages?.[0]?.content), /PLAN MODE is on/);
      const second = requestAt(server, 1);
      assert.match(toolResultText(second, callId(second)), /plan mode \(read-only\)/);
      assert.equal(existsSync(join(cwd, 'plan.txt')), false);
      // Out of plan mode, the next request offers the tools again, and the prompt says how to go on.
      terminal.type(SHIFT_TAB);
      await terminal.expectScreen(/^› *\n\s*ask mode .*say "go" to carry out the plan/m, 'the hint to go');
      ask(terminal, 'go');
      await terminal.expectScreen(/say "go"\.[\s\S]*say "go"\.[\s\S]*^› *$/m, 'the next answer');
      assert.ok(toolNames(requestAt(server, 2)).includes('write_file'));
      assert.doesNotMatch(String(requestAt(server, 2).body?.messages?.[0]?.content), /PLAN MODE/);
    } finally {
      await terminal.close();
    }
  });

  test('auto-edit: an edit applies without a question; a command still asks, and "y" alone approves it', { timeout: 60_000 }, async () => {
    const { cwd, terminal } = await replInTmux(
      [
        toolCalls([{ name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'draft', new_text: 'final' } }]),
        toolCalls([{ name: 'run_command', arguments: { command: 'echo made > made.txt' } }]),
        text('All done.'),
      ],
      { args: ['--mode', 'auto-edit'], files: { 'notes.txt': 'a draft\n' } },
    );
    try {
      await terminal.expectScreen(/^auto-edit › *$/m, 'auto-edit from --mode');
      ask(terminal, 'finish the notes and run the script');
      await terminal.expectScreen(/❯ y {2}Yes/, 'the question for the command');
      assert.equal(readFileSync(join(cwd, 'notes.txt'), 'utf8'), 'a final\n', 'the edit applied before the command was asked about');
      const screen = await terminal.screen({ history: true });
      assert.doesNotMatch(screen.slice(0, screen.indexOf('run_command')), QUESTION, 'the edit was not asked about');
      assert.match(screen, /run_command echo made > made\.txt\?/);
      terminal.type('y');
      await terminal.expectScreen(/All done\.[\s\S]*^auto-edit › *$/m, 'the answer after the command');
      assert.equal(readFileSync(join(cwd, 'made.txt'), 'utf8'), 'made\n');
    } finally {
      await terminal.close();
    }
  });

  test('the edit preview is a coloured, numbered diff; "t" and a reason deny, and the model reads the reason', { timeout: 60_000 }, async () => {
    const { server, cwd, terminal } = await replInTmux(
      [
        toolCalls([{ name: 'edit_file', arguments: { path: 'app.js', old_text: 'hello', new_text: 'bonjour' } }]),
        text('Understood, I will keep it in English.'),
      ],
      { files: { 'app.js': 'const a = 1;\nconst greeting = "hello";\nconsole.log(greeting);\n' } },
    );
    try {
      ask(terminal, 'translate the greeting');
      const screen = await terminal.expectScreen(/❯ y {2}Yes/, 'the menu');
      assert.match(screen, /│ 2 {3}- const greeting = "hello";/, `numbered removed line:\n${screen}`);
      assert.match(screen, /│ {3}2 \+ const greeting = "bonjour";/, `numbered added line:\n${screen}`);
      assert.match(screen, /│ 1 1 {3}const a = 1;/);
      assert.match(screen, /t {2}No, and tell it why/);
      const styled = await terminal.screen({ styled: true });
      assert.match(styled, /\x1b\[(\d+;)*31m[^\n]*- const greeting/, `the removed line is red:\n${JSON.stringify(styled)}`);
      assert.match(styled, /\x1b\[(\d+;)*32m[^\n]*\+ const greeting/, `the added line is green:\n${JSON.stringify(styled)}`);
      terminal.type('t');
      await terminal.expectScreen(/Tell the model why/, 'the reason line');
      ask(terminal, 'keep it in English');
      await terminal.expectScreen(/keep it in English\.[\s\S]*^› *$/m, 'the answer after the denial');
      const second = requestAt(server, 1);
      assert.match(toolResultText(second, callId(second)), /keep it in English/);
      assert.equal(readFileSync(join(cwd, 'app.js'), 'utf8'), 'const a = 1;\nconst greeting = "hello";\nconsole.log(greeting);\n');
    } finally {
      await terminal.close();
    }
  });

  test('with NO_COLOR the diff keeps its markers and numbers and has no colour', { timeout: 60_000 }, async () => {
    const { terminal } = await replInTmux(
      [toolCalls([{ name: 'edit_file', arguments: { path: 'app.js', old_text: 'hello', new_text: 'bonjour' } }]), text('ok')],
      { colour: false, files: { 'app.js': 'const greeting = "hello";\n' } },
    );
    try {
      ask(terminal, 'translate');
      const screen = await terminal.expectScreen(/❯ y {2}Yes/, 'the menu');
      assert.match(screen, /│ 1 {3}- const greeting = "hello";/);
      assert.match(screen, /│ {3}1 \+ const greeting = "bonjour";/);
      const styled = await terminal.screen({ styled: true });
      assert.doesNotMatch(styled, /\x1b\[(\d+;)*3[12]m/, `no red or green:\n${JSON.stringify(styled)}`);
      terminal.keys('Escape');
      await terminal.expectScreen(/^› *$/m, 'Esc says no and the turn goes on');
    } finally {
      await terminal.close();
    }
  });
});
