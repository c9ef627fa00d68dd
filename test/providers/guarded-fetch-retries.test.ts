import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RetryNotice } from '../../src/providers/retry-notice.ts';
import { guardedFetch } from '../../src/providers/guarded-fetch.ts';

const STREAM_BODY = JSON.stringify({ model: 'm', stream: true, messages: [] });
const ok = () =>
  new Response('data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n', { status: 200, headers: { 'content-type': 'text/event-stream' } });
const throttled = (headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { message: 'Requests rate limit exceeded', code: 'limit_requests', type: 'limit_requests' } }), { status: 429, headers });

/** A fetch answering from `answers` in turn (a function throws, as a refused connection does). */
function scripted(answers: Array<Response | (() => never)>) {
  let calls = 0;
  const fetch = (async () => {
    const answer = answers[Math.min(calls++, answers.length - 1)]!;
    return typeof answer === 'function' ? answer() : answer;
  }) as typeof globalThis.fetch;
  return { fetch, calls: () => calls };
}

describe('guardedFetch: retries are told', { timeout: 10_000 }, () => {
  test('each retry is reported before its wait: why, which try of how many, how long', async () => {
    const refused = () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    };
    const server = scripted([throttled({ 'retry-after-ms': '5' }), new Response('{"error":{"message":"overloaded"}}', { status: 503 }), refused, ok()]);
    const retries: RetryNotice[] = [];
    const fetch = guardedFetch({ maxRetries: 3, baseDelayMs: 1, fetch: server.fetch, onRetry: (retry) => retries.push(retry) });
    const response = await fetch('http://127.0.0.1:1/chat', { method: 'POST', body: STREAM_BODY });
    assert.equal(response.status, 200);
    assert.equal(server.calls(), 4);
    assert.deepEqual(retries, [
      { attempt: 1, maxRetries: 3, delayMs: 5, reason: 'rate-limited', status: 429 },
      { attempt: 2, maxRetries: 3, delayMs: 2, reason: 'server-error', status: 503 },
      { attempt: 3, maxRetries: 3, delayMs: 4, reason: 'network' },
    ]);
  });

  test('a throttling frame inside a 200 is told as rate limited, without a status', async () => {
    const frame = new Response('data: {"error":{"code":"Throttling","message":"Requests throttled"}}\n\n', { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const retries: RetryNotice[] = [];
    const fetch = guardedFetch({ maxRetries: 1, baseDelayMs: 1, fetch: scripted([frame, ok()]).fetch, onRetry: (retry) => retries.push(retry) });
    await fetch('http://127.0.0.1:1/chat', { method: 'POST', body: STREAM_BODY });
    assert.deepEqual(retries, [{ attempt: 1, maxRetries: 1, delayMs: 1, reason: 'rate-limited' }]);
  });

  test('no retry left, or an error not worth one: nothing is told', async () => {
    const retries: RetryNotice[] = [];
    const quota = new Response(JSON.stringify({ error: { code: 'insufficient_quota', message: 'You exceeded your current quota' } }), { status: 429 });
    const fetch = guardedFetch({ maxRetries: 2, baseDelayMs: 1, fetch: scripted([quota]).fetch, onRetry: (retry) => retries.push(retry) });
    assert.equal((await fetch('http://127.0.0.1:1/chat', { method: 'POST', body: STREAM_BODY })).status, 429);
    const none = guardedFetch({ maxRetries: 0, fetch: scripted([throttled()]).fetch, onRetry: (retry) => retries.push(retry) });
    assert.equal((await none('http://127.0.0.1:1/chat', { method: 'POST', body: STREAM_BODY })).status, 429);
    assert.deepEqual(retries, []);
  });

  test('the turn\'s signal ends a long wait at once, and no further request is sent', async () => {
    const server = scripted([throttled({ 'retry-after': '30' }), ok()]);
    const controller = new AbortController();
    const fetch = guardedFetch({ maxRetries: 3, fetch: server.fetch, onRetry: () => setImmediate(() => controller.abort(new Error('stopped'))) });
    const started = performance.now();
    await assert.rejects(fetch('http://127.0.0.1:1/chat', { method: 'POST', body: STREAM_BODY, signal: controller.signal }), /stopped/);
    assert.ok(performance.now() - started < 5_000, 'not the 30 s wait');
    assert.equal(server.calls(), 1);
  });

  test('a callback that throws does not stop the retry', async () => {
    const fetch = guardedFetch({ maxRetries: 1, baseDelayMs: 1, fetch: scripted([throttled({ 'retry-after-ms': '1' }), ok()]).fetch, onRetry: () => {
      throw new Error('display broke');
    } });
    assert.equal((await fetch('http://127.0.0.1:1/chat', { method: 'POST', body: STREAM_BODY })).status, 200);
  });
});
