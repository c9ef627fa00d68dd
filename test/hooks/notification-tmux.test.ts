import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startTerminal } from '../helpers/terminal.ts';

// A Notification hook hears that Sylvan waits for the user's approval, while the question is on screen.

async function fileAppears(path: string): Promise<void> {
  while (!existsSync(path) || readFileSync(path, 'utf8').trim() === '') await pause(50);
}

describe('a Notification hook', { timeout: 60_000 }, () => {
  test('runs when Sylvan asks for approval, with the message and its type', async (context) => {
    const cwd = tempWorkspace('sylvan-hooks-');
    mkdirSync(join(cwd, '.sylvan-home'));
    const notified = join(cwd, 'notified.json');
    writeFileSync(
      join(cwd, '.sylvan-home', 'settings.json'),
      JSON.stringify({ hooks: { Notification: [{ matcher: 'permission_prompt', hooks: [{ type: 'command', command: `cat > "${notified}"` }] }] } }),
    );
    const write = toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'x\n' } }]);
    const server = closeAtEnd(await startDashScopeServer({ replies: [write, text('OK, not written.')] }));
    const terminal = await startTerminal({ cwd, env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }) });
    context.after(() => terminal.close());
    await terminal.expect(/› /, 'the first prompt');
    const asked = terminal.expect(/No, and tell it why/, 'the approval menu');
    terminal.type('write notes\r');
    await asked;
    await withDeadline(fileAppears(notified), 20_000, 'the Notification hook to run');
    const input = JSON.parse(readFileSync(notified, 'utf8')) as Record<string, unknown>;
    assert.equal(input.hook_event_name, 'Notification');
    assert.equal(input.notification_type, 'permission_prompt');
    assert.match(String(input.message), /permission to use write_file/);
    const answered = terminal.expect(/OK, not written\./, "the model's answer after the denial");
    terminal.type('n');
    await answered;
  });
});
