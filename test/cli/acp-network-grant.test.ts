import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { probeSandbox } from '../../src/sandbox/availability.ts';
import { startAcpClient } from '../helpers/acp-client.ts';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { hostListener } from '../helpers/host-listener.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';

// The terminal's "run with network" answer, as an editor's permission option: a sandboxed command
// reaches the network only when the user picked it for that call.

const availability = probeSandbox();
const needsBwrap = availability.available ? false : `needs a working bubblewrap (the suite's .ci/run installs it): ${availability.reason}`;
const host = hostListener({ before, after });

describe('a sandboxed command asked about over ACP', { skip: needsBwrap, timeout: 60_000 }, () => {
  test('"Allow once, with network" lets that call reach the network, "Allow once" does not', async (context) => {
    const reach = (id: string) => toolCalls([{ id, name: 'run_command', arguments: { command: `exec 3<>/dev/tcp/127.0.0.1/${host.port} && head -1 <&3` } }]);
    const server = closeAtEnd(await startDashScopeServer({ replies: [reach('call_net'), reach('call_plain'), text('Done.')] }));
    let asked = 0;
    const acp = await startAcpClient({
      env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }),
      answer: () => (++asked === 1 ? 'allow_once_with_network' : 'allow_once'),
    });
    context.after(() => acp.close());
    const { sessionId } = await acp.agent.request('session/new', { cwd: acp.cwd, mcpServers: [] });
    await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'reach the host' }] });
    const first = acp.permissions[0]!;
    assert.deepEqual(first.options.map((option) => option.optionId), ['allow_once', 'allow_once_with_network', 'reject_once']);
    assert.doesNotMatch(JSON.stringify(first.toolCall.content), /\[w\]/);
    assert.match(toolResultText(requestAt(server, 1), 'call_net'), /hello from the host/);
    assert.doesNotMatch(toolResultText(requestAt(server, 2), 'call_plain'), /hello from the host/);
  });
});
