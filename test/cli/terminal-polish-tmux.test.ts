import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { contentText } from '../helpers/chat-requests.ts';
import { hang, startDashScopeServer, text } from '../helpers/dashscope-server.ts';
import { closeAtEnd } from '../helpers/served.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startTerminal, type Terminal } from '../helpers/terminal.ts';
import { helpLines } from '../../src/ui/commands/slash-commands.ts';

// What the second pass over the terminal fixed, read off a real terminal (tmux): the screen after a
// command chosen from the / menu holds exactly the command's lines, /help lines up at 60 and 120
// columns, the banner wraps between words, the demo runs a bare command line, and !command runs a
// command whose output the next request carries. Two terminal sessions, several checks each.

const workspaces: string[] = [];
after(() => workspaces.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function workspace(): string {
  const cwd = tempWorkspace();
  workspaces.push(cwd);
  return cwd;
}

/** The rows a command printed: between the prompt row that sent `sent` and the next prompt. */
function printedAfter(screen: string, sent: string): string[] {
  const rows = screen.split('\n');
  const start = rows.lastIndexOf(`› ${sent}`);
  assert.ok(start >= 0, `the prompt row "› ${sent}" is on the screen:\n${screen}`);
  const end = rows.findIndex((row, index) => index > start && /^›/.test(row));
  assert.ok(end > start, `a prompt after "› ${sent}":\n${screen}`);
  return rows.slice(start + 1, end);
}

/** Lines as a terminal of `columns` shows them (ASCII: a character is a column). */

/** Waits for the prompt after `sent` ran (the next empty prompt below its row). */
const ranAt = (terminal: Terminal, sent: string, what: string) =>
  terminal.expectScreen((screen) => {
    const rows = screen.split('\n');
    const start = rows.lastIndexOf(`› ${sent}`);
    return start >= 0 && rows.slice(start + 1).some((row) => row === '›');
  }, what);


describe('the terminal, second pass (tmux)', { timeout: 180_000 }, () => {
  test('with the mock model at 60 and then 120 columns: the banner, the / menu, /help, a bare command line', { timeout: 120_000 }, async () => {
    const terminal = await startTerminal({ cwd: workspace(), env: { SYLVAN_MOCK_DELAY_MS: '0', SYLVAN_SANDBOX: 'off' }, columns: 60, rows: 100 });
    try {
      // The banner wraps between words: the rows hold the same words as the lines, none split in two.
      const first = await terminal.expectScreen(/^›$/m, 'the first prompt');
      const bannerRows = first.split('\n').slice(0, first.split('\n').indexOf('›'));
      assert.ok(bannerRows.every((row) => row.length <= 60), bannerRows.join('\n'));
      const banner = [
        'Sylvan v0.1.0 · offline mock model · sample weather · sample search',
        'No API key found. Set DASHSCOPE_API_KEY (Qwen) or OPENAI_API_KEY in .env to talk to a real model.',
        'A local server (Ollama, vLLM, llama.cpp) needs no key: OPENAI_BASE_URL=http://localhost:11434/v1',
        'Try: 北京今天天气怎么样？ · (2+3)*4 等于多少？ · 列出这个文件夹的文件 · !ls · /help',
        '(commands run without a sandbox: turned off by SYLVAN_SANDBOX=off; /sandbox tells more)',
      ];
      const words = (text: string) => text.split(/\s+/).filter((word) => word !== '' && word !== '·');
      assert.deepEqual(words(bannerRows.join(' ')).slice(1), words(banner.join(' ')).slice(1), `no word broken:\n${bannerRows.join('\n')}`);
      assert.match(bannerRows[0] ?? '', /^Sylvan v\d/);

      // Chosen from the / menu with Tab: the screen holds exactly what /mcp printed, nothing of the menu.
      terminal.type('/mc');
      await terminal.expectScreen(/^ {2}\/mcp {10}MCP servers: /m, 'the / menu offering /mcp');
      terminal.keys('Tab');
      await terminal.expectScreen(/^› \/mcp *$/m, '/mcp completed');
      terminal.keys('Enter');
      let screen = await ranAt(terminal, '/mcp', '/mcp to run');
      // Broken between words under its indent, not where the edge falls ($SYLVAN_HOM|E).
      assert.deepEqual(printedAfter(screen, '/mcp'), [
        '  No MCP servers configured. Add "mcpServers" to',
        '  $SYLVAN_HOME/settings.json or .sylvan/settings.json (see',
        '  docs/mcp.md).',
      ]);

      // /help typed whole with the menu open: its own lines, descriptions in one column that wraps under itself.
      terminal.type('/help');
      await terminal.expectScreen(/^ {2}\/help {9}this list$/m, 'the menu under /help');
      terminal.keys('Enter');
      screen = await ranAt(terminal, '/help', '/help to run at 60 columns');
      const narrow = printedAfter(screen, '/help');
      assert.deepEqual(narrow, helpLines(60));
      assert.ok(narrow.every((row) => row.length < 60), narrow.join('\n'));
      assert.ok(narrow.some((row) => row.startsWith('  /think [on|off|budget N]  thinking')), narrow.join('\n'));
      // Every description row (a first one after its name, or a wrapped one) starts in column 28.
      const described = narrow.filter((row) => row.length > 28 && !row.startsWith('  Esc or') && !row.startsWith('  prompt,') && row !== '  Keys:');
      assert.ok(described.every((row) => row[27] === ' ' && row[28] !== ' '), described.filter((row) => !(row[27] === ' ' && row[28] !== ' ')).join('\n'));

      // Wider: /usage from the menu holds only its lines; /help chosen from the menu lines up at 120.
      await terminal.resize(120);
      terminal.type('/us');
      await terminal.expectScreen(/^ {2}\/usage {8}tokens used this session, and the estimated cost$/m, 'the menu offering /usage');
      terminal.keys('Tab');
      await terminal.expectScreen(/^› \/usage *$/m, '/usage completed');
      terminal.keys('Enter');
      screen = await ranAt(terminal, '/usage', '/usage to run');
      const usage = printedAfter(screen, '/usage');
      assert.equal(usage.length, 3, usage.join('\n'));
      assert.equal(usage[0], '  session: 0 input · 0 output · 0 cached');
      assert.match(usage[1] ?? '', /^ {2}context: \d+% of the 33k window$/);
      assert.equal(usage[2], '  no price known for mock');
      terminal.type('/he');
      await terminal.expectScreen(/^ {2}\/help {9}this list$/m, 'the menu offering /help');
      terminal.keys('Tab');
      terminal.keys('Enter');
      screen = await ranAt(terminal, '/help', '/help to run at 120 columns');
      const wide = printedAfter(screen, '/help');
      assert.deepEqual(wide, helpLines(120));
      assert.ok(wide.some((row) => row === '  /compact [instructions]   replace older turns with a summary'), wide.join('\n'));

      // The demo's suggestion typed without backticks is a command, asked about first.
      terminal.type('运行 ls -la');
      terminal.keys('Enter');
      await terminal.expectScreen(/run_command ls -la[\s\S]*❯ y {2}Yes/, 'the approval question for ls -la');
      terminal.type('y');
      screen = await terminal.expectScreen(/✓ run_command\(command: "ls -la"\)/, 'ls -la to run');
      assert.doesNotMatch(screen, /list_files/);
      await terminal.expectScreen(/运行了 `ls -la`：exit code 0/, 'the answer from the command');
    } finally {
      await terminal.close();
    }
  });

  test('against an OpenAI-compatible server: OPENAI_MODEL is the model, !echo hi reaches the next request, Ctrl-C stops a command, code streams indented', { timeout: 120_000 }, async () => {
    const server = closeAtEnd(
      await startDashScopeServer({
        respond: (_request, index) =>
          index === 0 ? hang({ headers: true, text: 'Here:\n\n```python\ndef f(x):\n    if x:\n        return 1\n' }) : text('ok'),
      }),
    );
    const terminal = await startTerminal({
      cwd: workspace(),
      env: { OPENAI_BASE_URL: server.baseURL, OPENAI_MODEL: 'fake-model', SYLVAN_MAX_RETRIES: '0' },
      columns: 120,
      rows: 40,
    });
    try {
      await terminal.expectScreen(/^Sylvan v\S+ · fake-model via http:\/\/127\.0\.0\.1:\d+\/compatible-mode\/v1 · /m, 'the banner naming fake-model');

      terminal.type('!echo hi');
      terminal.keys('Enter');
      let screen = await terminal.expectScreen(/^ {2}⎿ hi$/m, 'the output of !echo hi');
      assert.match(screen, /^✓ \$ echo hi · exit code 0 \(/m);
      assert.equal(server.requests.length, 0, 'the model was not asked');
      // Ctrl-C stops one that runs on.
      terminal.type('!echo started; sleep 30');
      terminal.keys('Enter');
      await terminal.expectScreen(/^ {2}started$/m, 'its live output under the status line');
      terminal.keys('C-c');
      await terminal.expectScreen(/^✗ \$ echo started; sleep 30 · [\d.]+s\n {2}⎿ it was stopped \(Ctrl-C\) before it finished\.$/m, 'the command stopped');

      terminal.type('它打印了什么？');
      terminal.keys('Enter');
      // The open code block streams in the frame it will have, its indentation kept.
      screen = await terminal.expectScreen(/│ {5}if x:\n│ {9}return 1/, 'the code block streaming, indented');
      assert.match(screen, /╭─ python\n│ def f\(x\):\n│ {5}if x:/);
      terminal.keys('Escape');
      await terminal.expectScreen(/^›$/m, 'the prompt after the answer was stopped');

      const request = server.requests[0]?.body;
      assert.equal(request?.model, 'fake-model');
      const users = (request?.messages ?? []).filter((message) => message.role === 'user').map((message) => contentText(message.content));
      assert.equal(users.length, 3, JSON.stringify(users));
      assert.match(users[0] ?? '', /^I ran `echo hi`:\nexit code 0 \([^)]*\)\nstdout:\nhi$/);
      assert.equal(users[1], 'I ran `echo started; sleep 30`, and it did not finish: it was stopped (Ctrl-C) before it finished.');
      assert.equal(users[2], '它打印了什么？');
    } finally {
      await terminal.close();
    }
  });
});
