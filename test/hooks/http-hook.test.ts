import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { postHook } from '../../src/hooks/http-hook.ts';

// An `http` hook gets the event's JSON by POST, and reaches this machine only.

const received: string[] = [];
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    received.push(body);
    response.writeHead(request.url === '/fail' ? 500 : 200, { 'content-type': 'application/json' });
    response.end('{"decision":"block","reason":"from http"}');
  });
});
const listening = new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
after(() => server.close());

const options = { input: '{"hook_event_name":"Stop"}', timeoutMs: 10_000, signal: new AbortController().signal };

describe('an http hook', () => {
  test('POSTs the JSON to a loopback server and reads its answer as stdout', async () => {
    const port = await listening;
    const result = await postHook({ ...options, url: `http://127.0.0.1:${port}/hook` });
    assert.deepEqual(result, { exit: 0, stdout: '{"decision":"block","reason":"from http"}', stderr: '' });
    assert.equal(received.at(-1), options.input);
  });

  test('a status other than 2xx is a non-blocking error', async () => {
    const port = await listening;
    const result = await postHook({ ...options, url: `http://localhost:${port}/fail` });
    assert.equal(result.exit, 1);
    assert.match(result.stderr, /HTTP 500/);
  });

  test('an address that is not loopback is refused before anything is sent', async () => {
    const before = received.length;
    for (const url of ['http://10.0.0.1/hook', 'http://[fd00::1]/hook', 'http://169.254.169.254/latest']) {
      const result = await postHook({ ...options, url });
      assert.equal(result.exit, 'failed', url);
      assert.match(result.stderr, /not a loopback address/, url);
    }
    assert.equal(received.length, before);
  });
});
