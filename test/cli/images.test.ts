import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { assertEveryRequestValid, requestAt } from '../helpers/chat-requests.ts';
import { startDashScopeServer, text, type ChatMessage } from '../helpers/dashscope-server.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { closeAtEnd } from '../helpers/served.ts';
import { TINY_PNG } from '../helpers/pictures.ts';

const KEY = 'sk-sylvan-images-test-5e21c9';
const DATA_URL = `data:image/png;base64,${TINY_PNG.toString('base64')}`;

function workspaceWithPicture(): string {
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'pic.png'), TINY_PNG);
  return cwd;
}

/** The piped REPL in a workspace holding pic.png, against a loopback server answering every request. */
const repl = (model: string, stdin: string) =>
  runCli({ inProcess: true, server: { respond: () => text('A small red square.') }, cwd: workspaceWithPicture(), key: KEY, stdin, env: { SYLVAN_MODEL: model } });

const vision = repl('qwen3-vl-plus', '@pic.png what is in this picture?\nand its colour?\n');
const textModel = repl('qwen-plus-latest', '@pic.png what is in this picture?\n');
// An OpenAI-compatible server (not api.openai.com) with gpt-4o: the same wire format from another provider.
const openai = (async () => {
  const server = closeAtEnd(await startDashScopeServer({ respond: () => text('A small red square.'), apiKey: KEY }));
  const env = { SYLVAN_PROVIDER: 'openai', SYLVAN_MODEL: 'gpt-4o', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.baseURL, SYLVAN_MAX_RETRIES: '0' };
  return { server, result: await runCli({ inProcess: true, cwd: workspaceWithPicture(), env, stdin: '@pic.png what is in this picture?\n' }) };
})();
openai.catch(() => {});

const lastUser = (messages: ChatMessage[] | undefined) => messages?.filter((message) => message.role === 'user').at(-1);
const firstUser = (messages: ChatMessage[] | undefined) => messages?.find((message) => message.role === 'user');

describe('@picture.png', CLI_TEST_TIMEOUT, () => {
  test('a vision model is sent the picture as an image_url data URL beside the text, again with the next turn; the session keeps a note, not the bytes', async () => {
    const { server, result, cwd } = await vision;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    assert.equal(server.requests.length, 2);
    const first = requestAt(server, 0);
    assert.equal(first.body?.model, 'qwen3-vl-plus');
    assert.deepEqual(lastUser(first.body?.messages)?.content, [
      { type: 'image_url', image_url: { url: DATA_URL } },
      { type: 'text', text: '@pic.png what is in this picture?' },
    ]);
    assert.deepEqual(firstUser(requestAt(server, 1).body?.messages)?.content, lastUser(first.body?.messages)?.content, 'the picture stays in the history');
    assert.match(result.stdout, /attached pic\.png/);

    const sessions = join(cwd, '.sylvan-home', 'sessions');
    const transcript = readdirSync(sessions).filter((name) => name.endsWith('.jsonl')).map((name) => readFileSync(join(sessions, name), 'utf8')).join('');
    assert.match(transcript, /\[image pic\.png \(1 KB, sha256 [0-9a-f]{12}\) was attached here/);
    assert.ok(!transcript.includes(TINY_PNG.toString('base64')), 'no base64 in the session file');
  });

  test('a text model gets one line naming a vision model, and nothing is sent', async () => {
    const { server, result } = await textModel;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 0, 'no request reached the server');
    const refusal = result.stdout.split('\n').filter((line) => /cannot see images/.test(line));
    assert.deepEqual(refusal, ['  qwen-plus-latest cannot see images; switch with /model qwen3-vl-plus (or another model that reads images) and send it again. Not sent.']);
  });

  test('gpt-4o through an OpenAI-compatible server is sent the same image_url part', async () => {
    const { server, result } = await openai;
    assert.equal(result.code, 0, result.stderr);
    const content = lastUser(requestAt(server, 0).body?.messages)?.content as Array<Record<string, unknown>>;
    assert.deepEqual(content.find((part) => part.type === 'image_url'), { type: 'image_url', image_url: { url: DATA_URL } });
  });
});
