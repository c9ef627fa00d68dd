import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { requestAt } from '../helpers/chat-requests.ts';
import { signal } from '../helpers/deadline.ts';
import { startDashScopeServer, text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal } from '../helpers/terminal.ts';

const ITEMS = [
  { text: 'Read the parser', status: 'done' },
  { text: 'Fix the off-by-one', status: 'in_progress' },
  { text: 'Add a regression test', status: 'pending' },
];

describe('the todo list in a terminal', { timeout: 120_000 }, () => {
  test('todo_write is drawn as a live checklist while the turn runs, collapses to one line at its end, /todo shows it, and --resume restores it', { timeout: 90_000 }, async () => {
    // The second request waits until the test has looked at the screen: the turn is still running then.
    const looked = signal();
    const replies = (index: number): Reply | Promise<Reply> =>
      index === 0
        ? toolCalls([{ name: 'todo_write', arguments: { items: ITEMS } }])
        : index === 1
          ? looked.fired.then(() => text('The off-by-one is fixed.'))
          : text('ok');
    const server = closeAtEnd(await startDashScopeServer({ respond: (_request, index) => replies(index) }));
    const cwd = tempWorkspace();
    const env = dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' });
    const terminal = await startTerminal({ cwd, env, columns: 100 });
    let sessionId: string;
    try {
      await terminal.expectScreen(/^› *$/m, 'the first prompt');
      terminal.type('fix the off-by-one in the parser');
      terminal.keys('Enter');
      const live = await terminal.expectScreen(/◐ Fix the off-by-one/, 'the live checklist');
      assert.match(live, /^ {2}☑ Read the parser\n {2}◐ Fix the off-by-one\n {2}☐ Add a regression test\n\S Waiting for the model/m, `the checklist sits right above the status line:\n${live}`);
      assert.match(live, /✓ todo_write/);
      looked.fire();

      const ended = await terminal.expectScreen(/The off-by-one is fixed\.[\s\S]*^› *$/m, 'the answer and the prompt');
      assert.match(ended, /^☐ 1\/3 done · \/todo$/m, `one line at the end of the turn:\n${ended}`);
      assert.doesNotMatch(ended, /◐ Fix the off-by-one/, 'the live checklist is gone');

      terminal.type('/todo');
      terminal.keys('Enter');
      await terminal.expectScreen(/Todo: 1 of 3 done\n {2}☑ Read the parser\n {2}◐ Fix the off-by-one\n {2}☐ Add a regression test/, '/todo');

      const first = requestAt(server, 0);
      assert.ok((first.body?.tools ?? []).some((tool) => tool.function.name === 'todo_write'), 'todo_write is offered');
      assert.match(String(first.body?.messages?.[0]?.content), /For work of three steps or more, keep a todo list with todo_write/);

      terminal.type('exit');
      terminal.keys('Enter');
      assert.equal(await terminal.exited(), 0);
      sessionId = /Resume this session: sylvan --resume (\S+)/.exec(terminal.output)?.[1] ?? '';
      assert.notEqual(sessionId, '', 'the exit lines name the session');
    } finally {
      await terminal.close();
    }

    const resumed = await runCli({ inProcess: true, cwd, env, args: ['--resume', sessionId], stdin: '/todo\n' });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /Todo: 1 of 3 done\n {2}☑ Read the parser\n {2}◐ Fix the off-by-one\n {2}☐ Add a regression test/);
  });
});
