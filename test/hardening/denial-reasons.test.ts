import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentEvent } from '../../src/agent/loop/events.ts';
import { redactEvent } from '../../src/agent/loop/redact-events.ts';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal } from '../helpers/terminal.ts';

// The reason a call was denied reaches the model as the call's result (nobody to ask in print
// mode, or the user's "n" in a terminal), and is redacted on its way to the screen like every text.

const KEY = 'sk-claims-redaction-5d20';
const TOKEN = 'ghp_claimsRedactionToken0f9e8d7c';

const write = () => toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'changed\n' } }]);
const deniedInPrint = runCli({ inProcess: true, server: { replies: [write(), text('OK, not written.')] }, key: KEY, args: ['-p', 'write notes'] });

describe('the reason a call was denied', { timeout: 60_000 }, () => {
  test('reaches the model as the tool result: nobody to ask in print mode', async () => {
    const { result, server } = await deniedInPrint;
    assert.equal(result.code, 0, result.stderr);
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /running non-interactively without --yes, so it was not run/);
  });

  test('reaches the model as the tool result: the user answered n in a terminal', async (context) => {
    const server = closeAtEnd(await startDashScopeServer({ replies: [write(), text('OK, not written.')] }));
    const terminal = await startTerminal({ cwd: tempWorkspace(), env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }) });
    context.after(() => terminal.close());
    await terminal.expect(/› /, 'the first prompt');
    // A terminal asks with the one-key menu: `n` alone answers.
    const asked = terminal.expect(/No, and tell it why/, 'the approval menu');
    terminal.type('write notes\r');
    await asked;
    const answered = terminal.expect(/OK, not written\./, "the model's answer after the denial");
    terminal.type('n');
    await answered;
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /The user said no to this call; nothing was changed/);
  });

  test('is redacted on its way to the screen like every other text', () => {
    const denied: AgentEvent = { type: 'tool-denied', toolCallId: 'c1', toolName: 'run_command', reason: `refused: it would print ${TOKEN}` };
    assert.deepEqual(redactEvent(denied, [TOKEN]), { ...denied, reason: 'refused: it would print [redacted]' });
  });
});
