import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dashscopeSearchFetch, describeSources, type SearchSource } from '../../src/providers/dashscope-search.ts';

/** A fetch that records what it was sent and answers with `body` in `parts`. */
function recordingFetch(parts: string[], contentType = 'text/event-stream') {
  const sent: Array<{ url: string; body: unknown }> = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    sent.push({ url: String(input), body: init?.body });
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(encoder.encode(part));
        controller.close();
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': contentType } });
  };
  return { fetch, sent };
}

describe('DashScope server-side search (a request-body transform in the provider\'s fetch)', { timeout: 5_000 }, () => {
  test('adds enable_search and search_options.enable_source, keeping everything else, including other search options', async () => {
    const { fetch, sent } = recordingFetch(['data: [DONE]\n\n']);
    const searching = dashscopeSearchFetch(() => {}, fetch);
    await searching('http://127.0.0.1/chat', { method: 'POST', body: JSON.stringify({ model: 'qwen-plus', messages: [{ role: 'user', content: 'hi' }], search_options: { forced_search: true } }) });
    assert.deepEqual(JSON.parse(String(sent[0]?.body)), {
      model: 'qwen-plus',
      messages: [{ role: 'user', content: 'hi' }],
      enable_search: true,
      search_options: { forced_search: true, enable_source: true },
    });
    await searching('http://127.0.0.1/other', { method: 'POST', body: 'not json' });
    assert.equal(sent[1]?.body, 'not json', 'a body that is not a chat request passes untouched');
  });

  test('passes the stream through byte for byte and reads search_info even when a line is split across chunks', async () => {
    const event = JSON.stringify({ choices: [{ delta: { content: 'x' } }], search_info: { search_results: [{ index: 1, title: 'T', url: 'https://a.example/', site_name: 'A' }, { url: 'javascript:alert(1)' }] } });
    const whole = `data: ${event}\n\ndata: [DONE]\n\n`;
    const parts = [whole.slice(0, 30), whole.slice(30, 90), whole.slice(90)];
    const { fetch } = recordingFetch(parts);
    const reported: SearchSource[][] = [];
    const response = await dashscopeSearchFetch((sources) => reported.push(sources), fetch)('http://127.0.0.1/chat', { method: 'POST', body: '{"messages":[]}' });
    assert.equal(await response.text(), whole);
    assert.deepEqual(reported, [[{ url: 'https://a.example/', title: 'T', index: 1, siteName: 'A' }]], 'only http(s) sources are kept');
  });

  test('the notice lists each source on its own line, control characters made visible', () => {
    const text = describeSources([{ index: 1, title: 'Evil\u001b[2Jtitle', url: 'https://a.example/' }]);
    assert.equal(text, 'Sources (DashScope web search):\n  [1] Evil␛[2Jtitle — https://a.example/');
  });
});
