import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { contentText } from '../helpers/chat-requests.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startDashScopeServer, text, toolCalls, type Responder } from '../helpers/dashscope-server.ts';
import { hostListener } from '../helpers/host-listener.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal } from '../helpers/terminal.ts';
import { probeSandbox } from '../../src/sandbox/availability.ts';

// Issue 32, failure 5: "with network" was granted by call id alone and outlived its call. Some
// servers number calls per answer (call_0, call_1…), so a later step's call can carry the id of one
// the user granted the network and then stopped before it ran.
const availability = probeSandbox();
const needsBwrap = availability.available ? false : `needs a working bubblewrap (the suite's .ci/run installs it): ${availability.reason}`;

describe('a "with network" grant', { skip: needsBwrap, timeout: 120_000 }, () => {
  const host = hostListener({ before, after });

  test('given to a call stopped before it ran does not reach a later call with the same id', async () => {
    const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${host.port} && head -1 <&3; echo ---end`;
    const respond: Responder = (request) => {
      const last = request.body?.messages?.at(-1);
      if (last?.role !== 'user') return text('done.');
      const first = String(last.content) === 'first';
      return toolCalls([{ id: 'call_0', name: 'run_command', arguments: { command: first ? 'echo granted-call-ran' : connect() } }]);
    };
    const server = closeAtEnd(await startDashScopeServer({ respond }));
    const terminal = await startTerminal({ cwd: tempWorkspace('sylvan-grant-'), env: { ...dashscopeEnv(server), SYLVAN_MAX_RETRIES: '0' }, columns: 140 });
    after(() => terminal.close());
    await terminal.expect(/› /, 'the first prompt');

    let asked = terminal.expect(/with network/, 'the question about the first command');
    terminal.type('first\r');
    await asked;
    // "with network", and at once Ctrl-C: the turn stops before the call starts.
    let back = terminal.expect(/› /, 'the prompt after the interrupt');
    terminal.type('w\x03');
    await back;

    asked = terminal.expect(/with network/, 'the question about the second command');
    terminal.type('second\r');
    await asked;
    back = terminal.expect(/done\.[\s\S]*› /, 'the answer after the second command');
    terminal.type('y');
    await back;

    // The last request holds both calls' results, the stopped one's first.
    const results = (server.requests.at(-1)?.body?.messages ?? []).filter((message) => message.role === 'tool' && message.tool_call_id === 'call_0');
    assert.equal(results.length, 2);
    assert.match(contentText(results[0]?.content), /Interrupted/);
    const output = contentText(results[1]?.content);
    assert.match(output, /---end/, output);
    assert.doesNotMatch(output, /hello from the host/, 'the second command ran with the first one\'s grant');
  });
});
