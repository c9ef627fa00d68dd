import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyProblem, clipMessage, problemFromBody, problemLine } from '../../src/providers/errors/provider-errors.ts';
import { retryDelay } from '../../src/providers/guarded-fetch.ts';
import { guardEventStream } from '../../src/providers/stream-guard.ts';
import { plainTextContent } from '../../src/providers/plain-text-content.ts';
import { parseThinkCommand, parseThinkingOptions, thinkingRequest } from '../../src/models/thinking.ts';
import { contextWindowFor, thinkingSupportOf } from '../../src/models/model-catalogue.ts';

const context = { label: 'DashScope', model: 'qwen-plus', baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1', keyVariable: 'DASHSCOPE_API_KEY', baseUrlVariable: 'DASHSCOPE_BASE_URL', attempts: 1 };

describe('the error table', { timeout: 10_000 }, () => {
  test('retry or not, by code before status', () => {
    const cases: Array<[object, string, boolean]> = [
      [{ status: 429, code: 'insufficient_quota' }, 'account', false],
      [{ status: 429, code: 'Throttling.RateQuota' }, 'throttled', true],
      [{ status: 200, code: 'Throttling.AllocationQuota' }, 'throttled', true],
      [{ status: 400, code: 'Arrearage' }, 'account', false],
      [{ status: 400, code: 'DataInspectionFailed' }, 'moderation', false],
      [{ status: 200, code: 'data_inspection_failed' }, 'moderation', false],
      [{ status: 403, code: 'AccessDenied' }, 'model-access', false],
      [{ status: 404, code: 'model_not_found' }, 'model-not-found', false],
      [{ status: 401, code: 'invalid_api_key' }, 'bad-key', false],
      [{ status: 503 }, 'server', true],
      [{ status: 400, code: 'invalid_parameter_error' }, 'bad-request', false],
    ];
    for (const [problem, kind, retry] of cases) assert.deepEqual(classifyProblem(problem), { kind, retry }, JSON.stringify(problem));
  });

  test('a 500 with a moderation body is still moderation, never "on the server\'s side"', () => {
    const line = problemLine({ status: 500, code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' }, context);
    assert.match(line, /content moderation blocked the answer/);
  });

  test('bodies: DashScope/OpenAI error objects, native {code, message}, plain strings', () => {
    assert.deepEqual(problemFromBody(400, '{"code":"Arrearage","message":"Access denied"}'), { status: 400, code: 'Arrearage', type: undefined, message: 'Access denied' });
    assert.deepEqual(problemFromBody(500, '{"error":"model crashed"}'), { status: 500, message: 'model crashed' });
    assert.equal(problemFromBody(200, '<html>'), undefined);
    assert.equal(problemFromBody(200, '{"choices":[]}'), undefined);
  });

  test('messages are kept whole up to ~300 characters and cut at a word', () => {
    const words = Array.from({ length: 80 }, (_, index) => `word${index}`).join(' ');
    const clipped = clipMessage(words) ?? '';
    assert.ok(clipped.length <= 301 && clipped.endsWith('…'));
    assert.ok(words.startsWith(`${clipped.slice(0, -1)} `));
    assert.equal(clipMessage('short  and\nsplit'), 'short and split');
  });
});

describe('retry-after', { timeout: 10_000 }, () => {
  test('seconds, milliseconds, an HTTP date, and too long to wait', () => {
    assert.equal(retryDelay(new Headers({ 'retry-after': '2' }), 1000, 1), 2000);
    assert.equal(retryDelay(new Headers({ 'retry-after-ms': '150' }), 1000, 1), 150);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryDelay(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), 1000, 1, now), 3000);
    assert.equal(retryDelay(new Headers({ 'retry-after': '3600' }), 1000, 1), undefined);
    assert.equal(retryDelay(new Headers(), 1000, 3), 4000);
  });
});

async function readGuarded(parts: string[], limits = { lineChars: 50, totalChars: 400 }): Promise<{ text: string; error?: unknown }> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });
  let text = '';
  try {
    for await (const chunk of guardEventStream(source, limits)) text += new TextDecoder().decode(chunk);
    return { text };
  } catch (error) {
    return { text, error };
  }
}

describe('the stream guard', { timeout: 10_000 }, () => {
  test('a stream passes through unchanged, split anywhere', async () => {
    const { text, error } = await readGuarded(['data: {"a"', ':1}\n\ndata: [DO', 'NE]\n\n']);
    assert.equal(error, undefined);
    assert.equal(text, 'data: {"a":1}\n\ndata: [DONE]\n\n');
  });

  test('a line over the cap, a body over the cap, a lone [DONE] each fail with their fault', async () => {
    const faultOf = async (parts: string[]) => ((await readGuarded(parts)).error as { problem?: { fault?: string } })?.problem?.fault;
    assert.equal(await faultOf([`data: ${'x'.repeat(60)}`]), 'line-too-long');
    assert.equal(await faultOf(Array.from({ length: 20 }, () => 'data: {"a":1}\n\n'.padEnd(30, ' '))), 'too-large');
    assert.equal(await faultOf(['data: [DONE]\n\n']), 'empty-stream');
  });

  test('an error frame after text ends the stream with the frame as its last line', async () => {
    const { text, error } = await readGuarded(['data: {"a":1}\n\ndata: {"error":{"code":"x"}}\n\ndata: {"b":2}\n\n'], { lineChars: 100, totalChars: 1000 });
    assert.equal(error, undefined);
    assert.equal(text, 'data: {"a":1}\n\ndata: {"error":{"code":"x"}}\n\n');
  });
});

describe('thinking and the catalogue', { timeout: 10_000 }, () => {
  test('hybrid, thinking-only and non-thinking models', () => {
    assert.equal(thinkingSupportOf('qwen-plus-latest'), 'hybrid');
    assert.equal(thinkingSupportOf('qwq-plus'), 'always');
    assert.equal(thinkingSupportOf('qwen3-235b-a22b-thinking-2507'), 'always');
    assert.equal(thinkingSupportOf('qwen3-coder-plus'), 'never');
    assert.equal(thinkingSupportOf('qwen3-8b'), 'hybrid');
    assert.equal(contextWindowFor('qwen-flash'), 1_000_000);
  });

  test('compaction never thinks; thinking-only models are never told not to', () => {
    assert.deepEqual(thinkingRequest('qwen-plus', { mode: 'on', budget: 100 }, 'compaction'), { enableThinking: false });
    assert.deepEqual(thinkingRequest('qwen-plus', { mode: 'on', budget: 100 }, 'answer'), { enableThinking: true, thinkingBudget: 100 });
    assert.deepEqual(thinkingRequest('qwq-plus', { mode: 'off' }, 'answer'), {});
    assert.deepEqual(thinkingRequest('qwen3-coder-plus', { mode: 'on' }, 'answer'), {});
  });

  test('flags over the variable; /think parses its words', () => {
    assert.deepEqual(parseThinkingOptions({ 'no-think': true }, { SYLVAN_THINKING: 'on' }), { mode: 'off' });
    assert.deepEqual(parseThinkingOptions({}, { SYLVAN_THINKING_BUDGET: '300' }), { mode: 'on', budget: 300 });
    assert.throws(() => parseThinkingOptions({}, { SYLVAN_THINKING: 'maybe' }), /SYLVAN_THINKING must be on, off or auto/);
    assert.deepEqual(parseThinkCommand('budget 64', { mode: 'off' }), { mode: 'on', budget: 64 });
    assert.deepEqual(parseThinkCommand('sideways', { mode: 'auto' }), { error: 'Usage: /think [on|off|auto|budget N]' });
  });
});

describe('plain text content', { timeout: 10_000 }, () => {
  test('text-only parts become a string; images and cache control are left alone', () => {
    const body = JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi ' }, { type: 'text', text: 'there' }] }] });
    assert.deepEqual(JSON.parse(plainTextContent(body)).messages[0].content, 'hi there');
    const cached = JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }] });
    assert.equal(plainTextContent(cached), cached);
  });

  test('reads a whole history the way a JSON parser does: quotes, escapes and markup inside the text stay text', () => {
    const tricky = ['say "hi"', 'a \\ backslash\\', 'line\nbreak\ttab', '"content":[{"type":"text","text":"x"}]', '東京 😀 \u2028', ''];
    const messages = [
      { role: 'system', content: 'You are Sylvan.' },
      ...tricky.map((text) => ({ role: 'user', content: [{ type: 'text', text }] })),
      { role: 'user', content: [{ type: 'text', text: 'two ' }, { type: 'text', text: 'parts "quoted"' }] },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
      { role: 'user', content: [{ type: 'text', text: 'cached' }, { type: 'text', text: 'end', cache_control: { type: 'ephemeral' } }] },
      { role: 'assistant', content: 'an answer with "content":[{"type":"text","text":"y"}] in it' },
      { role: 'tool', tool_call_id: 'c1', content: '{"type":"text","text":"z"}' },
      { role: 'user', content: [{ type: 'text', text: 'after content that stays as it was' }] },
    ];
    const body = JSON.stringify({ model: 'qwen-plus', messages, stream: true });
    const expected = messages.map((message) =>
      Array.isArray(message.content) && message.content.every((part) => Object.keys(part).length === 2 && part.type === 'text')
        ? { ...message, content: message.content.map((part) => (part as { text: string }).text).join('') }
        : message,
    );
    assert.deepEqual(JSON.parse(plainTextContent(body)), { model: 'qwen-plus', messages: expected, stream: true });
  });
});
