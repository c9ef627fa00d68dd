import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { hang, startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { signal, withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd } from '../helpers/served.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { SCREEN_DEADLINE_MS, startTerminal } from '../helpers/terminal.ts';

test('Ctrl-C mid-answer returns to the prompt, and the next turn still has the earlier turns and tool results', { timeout: 240_000 }, async (context) => {
  const cwd = tempWorkspace();
  const hungRequest = signal();
  const server = closeAtEnd(await startDashScopeServer({
    respond: (_request, index) => {
      if (index === 0) return toolCalls([{ id: 'call_calc_1', name: 'calculate', arguments: { expression: '(2+3)*4' } }]);
      if (index === 1) return text('The answer is 20.');
      if (index === 2) {
        hungRequest.fire();
        return hang({ headers: true, text: 'Let me think about that at great' });
      }
      return text('Here is the next answer.');
    },
  }));
  const terminal = await startTerminal({
    cwd,
    env: { DASHSCOPE_API_KEY: 'test-key', DASHSCOPE_BASE_URL: server.baseURL, SYLVAN_HOME: join(cwd, '.home'), SYLVAN_MAX_RETRIES: '0' },
  });
  context.after(() => terminal.close());
  await terminal.expect(/› /, 'the first prompt');
  terminal.type('what is (2+3)*4?\r');
  await terminal.expect(/The answer is 20\.[\s\S]*› /, 'the first answer and a new prompt');

  terminal.type('tell me a long story\r');
  await withDeadline(hungRequest.fired, SCREEN_DEADLINE_MS, 'the second question to reach the server');
  await terminal.expect(/at great/, 'the start of the second answer');
  terminal.type('\x03');
  await terminal.expect(/Interrupted[\s\S]*› /, 'the interrupt line and the prompt again');

  terminal.type('and now?\r');
  await terminal.expect(/Here is the next answer\.[\s\S]*› /, 'the third answer');
  terminal.type('exit\r');
  assert.equal(await terminal.exited(), 0);

  assert.equal(server.requests.length, 4);
  const last = server.requests[3]!;
  assert.equal(last.invalid, undefined);
  const messages = last.body?.messages ?? [];
  const users = messages.filter((message) => message.role === 'user').map((message) => message.content);
  assert.deepEqual(users, ['what is (2+3)*4?', 'tell me a long story', 'and now?']);
  const call = messages.find((message) => message.role === 'assistant' && message.tool_calls?.length);
  assert.equal(call?.tool_calls?.[0]?.function.name, 'calculate');
  const result = messages.find((message) => message.role === 'tool');
  assert.equal(result?.tool_call_id, call?.tool_calls?.[0]?.id);
  assert.match(String(result?.content), /20/);
});
