import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { contentText, requestAt } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startDashScopeServer, text, toolCalls, type RecordedRequest } from '../helpers/dashscope-server.ts';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal } from '../helpers/terminal.ts';

const KEY = 'sk-test-custom-commands-5b0e7d';

/** A workspace holding `files`; `home/…` goes under its SYLVAN_HOME (the tests' `.sylvan-home`). */
function workspaceWith(files: Record<string, string>): string {
  const cwd = tempWorkspace();
  for (const [name, content] of Object.entries(files)) {
    const file = name.startsWith('home/') ? join(cwd, '.sylvan-home', name.slice('home/'.length)) : join(cwd, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return cwd;
}

const COMMANDS = {
  '.sylvan/commands/review.md': '---\ndescription: review a file\nargument-hint: <file> [focus]\nmodel: qwen-flash\n---\nReview $1. Focus on: $2.\nAll I typed: $ARGUMENTS',
  '.sylvan/commands/fix.md': '---\ndescription: the project fix\n---\nProject fix: $ARGUMENTS',
  'home/commands/fix.md': '---\ndescription: my fix\n---\nMy own fix: $ARGUMENTS',
  '.sylvan/commands/status.md': 'Where the work stands:\n!`echo from-the-shell`\nSay what to do next.',
};

const lastUserText = (request: RecordedRequest): string =>
  contentText(request.body?.messages?.filter((message) => message.role === 'user').at(-1)?.content);

// A piped REPL: nobody can approve the `!` line, so /status is not sent.
const replCwd = workspaceWith(COMMANDS);
const repl = runCli({ inProcess: true, server: {
    replies: [
      toolCalls([{ id: 'call_calc', name: 'calculate', arguments: { expression: KEY } }]),
      text(`Reviewed. The key ${KEY} was in the file.`),
      text('Fixed.'),
    ],
  }, key: KEY, cwd: replCwd, stdin: '/review src/app.ts "error paths"\n/fix the login bug\n/status\n/export\n' });
// Print mode with --yes: the `!` line runs, and its output goes into the prompt.
const printed = runCli({ inProcess: true, server: { replies: [text('Next: write the tests.')] }, key: KEY, cwd: workspaceWith(COMMANDS), args: ['--yes', '-p', '/status today'] });

describe('custom commands against a loopback model', () => {
  test('a project command sends its prompt with $ARGUMENTS and $1/$2 put in, on its own model for that turn only', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await repl;
    assert.equal(result.code, 0, result.stderr);
    const review = requestAt(server, 0);
    assert.equal(lastUserText(review), 'Review src/app.ts. Focus on: error paths.\nAll I typed: src/app.ts "error paths"');
    assert.equal(review.body?.model, 'qwen-flash');
    assert.equal(requestAt(server, 2).body?.model, 'qwen-plus-latest', 'the next turn is back on the session model');
  });

  test("the user's command of the same name wins over the project's", CLI_TEST_TIMEOUT, async () => {
    const { server } = await repl;
    assert.equal(lastUserText(requestAt(server, 2)), 'My own fix: the login bug');
  });

  test('a !`command` line nobody can approve is not run, and the command is not sent', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await repl;
    assert.equal(server.requests.length, 3, 'a request for /status');
    assert.match(result.stdout, /✗ \/status was not sent: !`echo from-the-shell` was not run: Sylvan's input is a pipe, so it cannot ask; rerun with --yes/);
  });

  test('with --yes the !`command` runs and its output takes its line in the prompt (print mode)', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await printed;
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      lastUserText(requestAt(server, 0)),
      /^Where the work stands:\n```console\n\$ echo from-the-shell\nexit code 0 \([\d.]+ s\)\nstdout:\nfrom-the-shell\n```\nSay what to do next\.\n\ntoday$/,
    );
    assert.match(result.stdout, /Next: write the tests\./);
  });

  test('/export writes the session as Markdown in the workspace with every key redacted', CLI_TEST_TIMEOUT, async () => {
    const { result } = await repl;
    const name = readdirSync(replCwd).find((file) => /^sylvan-session-.*\.md$/.test(file));
    assert.ok(name, `no export in the workspace:\n${result.stdout}`);
    assert.match(result.stdout, new RegExp(`Exported 2 turns to ${name.replace(/[.]/g, '\\.')}`));
    const markdown = readFileSync(join(replCwd, name), 'utf8');
    assert.equal(markdown.includes(KEY), false, `the key is in the export:\n${markdown}`);
    assert.match(markdown, /## You\n\nReview src\/app\.ts\./);
    assert.match(markdown, /<details><summary>✗ calculate\(expression: "\[redacted\]"\)<\/summary>/);
    assert.match(markdown, /Reviewed\. The key \[redacted\] was in the file\./);
    assert.match(markdown, /## You\n\nMy own fix: the login bug\n\n## Sylvan\n\nFixed\./);
  });
});

describe('custom commands, /copy and OSC 52 in a terminal', { timeout: 90_000 }, () => {
  test("the / menu says which command is whose; model text's OSC 52 is shown, not run; /copy writes Sylvan's own", async () => {
    const answer = 'Here: \x1b]52;c;ZXZpbA==\x07 done.';
    const server = closeAtEnd(await startDashScopeServer({ respond: () => text(answer) }));
    const terminal = await startTerminal({ cwd: workspaceWith(COMMANDS), env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }), columns: 120 });
    try {
      await terminal.expectScreen(/^›/m, 'the first prompt');
      terminal.type('/f');
      await terminal.expectScreen(/\/fix +my fix \(user, over the project's\)/, "the user's /fix in the / menu, over the project's");
      terminal.type('\x7fre');
      await terminal.expectScreen(/\/review +review a file \(project\)/, "the project's /review in the / menu");
      terminal.type('\x15hello\r');
      await terminal.expectScreen(/Here: ␛\]52;c;ZXZpbA==␇ done\./, 'the answer with its escape made visible');
      assert.equal(terminal.output.includes('\x1b]52;c;ZXZpbA=='), false, "the model's OSC 52 reached the terminal");
      terminal.type('/copy\r');
      await terminal.expect(/Copied the last answer/, 'the /copy line');
      const copied = `\x1b]52;c;${Buffer.from('Here: ␛]52;c;ZXZpbA==␇ done.').toString('base64')}\x07`;
      assert.equal(terminal.output.split('\x1b]52;').length - 1, 1, 'one OSC 52 in all');
      assert.ok(terminal.output.includes(copied), "/copy's OSC 52 was not written");
      terminal.type('\x04');
      assert.equal(await terminal.exited(), 0);
    } finally {
      await terminal.close();
    }
  });
});
