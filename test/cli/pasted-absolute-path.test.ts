import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { requestAt } from '../helpers/chat-requests.ts';
import { text, type ChatMessage } from '../helpers/dashscope-server.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { TINY_PNG } from '../helpers/pictures.ts';

const KEY = 'sk-sylvan-pasted-path-test-7d1f';

/** A picture dropped on the terminal pastes its absolute path, spaces escaped, on a line by itself. */
const run = (() => {
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'my shot.png'), TINY_PNG);
  writeFileSync(join(cwd, 'notes.txt'), 'hello');
  const stdin = `${join(cwd, 'my\\ shot.png')}\n${join(cwd, 'notes.txt')} is where I keep notes\n/no-such-command\n`;
  return runCli({ inProcess: true, server: { respond: () => text('A small red square.') }, cwd, key: KEY, stdin, env: { SYLVAN_MODEL: 'qwen3-vl-plus' } });
})();
run.catch(() => {});

const userText = (messages: ChatMessage[] | undefined) => JSON.stringify(messages?.filter((message) => message.role === 'user').at(-1)?.content);

describe('a line starting with an existing absolute path', CLI_TEST_TIMEOUT, () => {
  test('is a message (the picture attached), not an unknown command; a real unknown command still gets the hint', async () => {
    const { server, result } = await run;
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /Unknown command \/(?!no-such-command)/);
    assert.match(result.stdout, /Unknown command \/no-such-command\. Try \/help\./);
    assert.equal(server.requests.length, 2);
    assert.match(userText(requestAt(server, 0).body?.messages), /image_url/);
    assert.match(userText(requestAt(server, 1).body?.messages), /notes\.txt is where I keep notes/);
  });
});
