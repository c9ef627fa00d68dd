import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startBodyServer } from '../helpers/body-server.ts';
import { runCli } from '../helpers/cli.ts';
import { text } from '../helpers/dashscope-server.ts';

// Issue 11: /model lists the server's models and switching updates the context window,
// thinking mode and prices; /think changes what the next request sends.

const KEY = 'sk-model-test';
const TIMEOUT = { timeout: 60_000 };

describe('/model and /think in the REPL', TIMEOUT, () => {
  test('/model qwen-flash changes the context window /usage shows', async () => {
    const { result } = await runCli({ inProcess: true, server: { replies: [] }, stdin: '/usage\n/model qwen-flash\n/usage\n', key: KEY, env: { SYLVAN_MODEL: 'qwen-plus' } });
    assert.equal(result.code, 0, result.stderr);
    const windows = [...result.stdout.matchAll(/of the (\d+)k window/g)].map((match) => match[1]);
    assert.deepEqual(windows, ['131', '1000']);
    assert.match(result.stdout, /Now using qwen-flash: 1M context/);
    assert.match(result.stdout, /at qwen-flash list prices/);
  });

  test("/model with no name lists the server's models (GET /models), the current one marked", async () => {
    const paths: string[] = [];
    const server = await startBodyServer((response, request) => {
      paths.push(`${request.method} ${request.url} ${request.headers.authorization}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen-plus', object: 'model' }, { id: 'qwen-flash', object: 'model' }, { id: 'qwq-plus\u001b[2J', object: 'model' }] }));
    });
    const result = await runCli({ inProcess: true,
      stdin: '/model\n',
      env: { DASHSCOPE_API_KEY: KEY, DASHSCOPE_BASE_URL: server.baseURL, SYLVAN_MODEL: 'qwen-plus' },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(paths, [`GET /compatible-mode/v1/models Bearer ${KEY}`]);
    assert.match(result.stdout, /\* qwen-plus.*\(current\)/);
    assert.match(result.stdout, /\n\s+qwen-flash\n/);
    assert.doesNotMatch(result.stdout, /\u001b\[2J/, 'a model name from the server is sanitised');
  });

  test('/model with no name says so when the server cannot list models', async () => {
    const { result } = await runCli({ inProcess: true, server: { replies: [] }, stdin: '/model\n', key: KEY });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Could not list the server's models \(the server answered 404\)\. Switch with \/model NAME\./);
  });

  test('/think on, /think off and /think budget N change what the next request sends', async () => {
    const { result, server } = await runCli({ inProcess: true, server: { replies: [text('one'), text('two'), text('three')] }, stdin: '/think on\nfirst\n/think off\nsecond\n/think budget 512\nthird\n', key: KEY, env: { SYLVAN_MODEL: 'qwen-plus' } });
    assert.equal(result.code, 0, result.stderr);
    const sent = server.requests.map((request) => [request.body?.enable_thinking, request.body?.thinking_budget]);
    assert.deepEqual(sent, [
      [true, undefined],
      [false, undefined],
      [true, 512],
    ]);
    assert.match(result.stdout, /thinking on for qwen-plus \(budget 512 tokens\)/);
  });
});
