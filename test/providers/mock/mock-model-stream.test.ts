import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { createMockModel } from '../../../src/providers/mock/mock-model.ts';

async function readAll(model: LanguageModelV4, userText: string, abortSignal?: AbortSignal): Promise<LanguageModelV4StreamPart[]> {
  const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: userText }] }], abortSignal });
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('mock model: the LanguageModelV4 contract', () => {
  test('identifies itself as a v4 model', () => {
    const model = createMockModel();
    assert.equal(model.specificationVersion, 'v4');
    assert.equal(model.provider, 'sylvan-mock');
    assert.equal(model.modelId, 'mock');
    assert.deepEqual(model.supportedUrls, {});
  });

  test('streams text in small chunks under one id, then finishes with estimated usage', async () => {
    const parts = await readAll(createMockModel(), '你好');
    assert.equal(parts[0]?.type, 'stream-start');
    const deltas = parts.filter((part) => part.type === 'text-delta');
    assert.ok(deltas.length > 20);
    assert.ok(deltas.every((part) => part.delta.trim().length <= 24));
    const ids = new Set(parts.flatMap((part) => ('id' in part && part.type.startsWith('text') ? [part.id] : [])));
    assert.equal(ids.size, 1);
    const finish = parts.at(-1);
    assert.equal(finish?.type, 'finish');
    if (finish?.type !== 'finish') return;
    assert.deepEqual(finish.finishReason, { unified: 'stop', raw: 'stop' });
    assert.equal(finish.usage.inputTokens.total, 2);
    assert.equal(finish.usage.inputTokens.cacheRead, 0);
    assert.ok((finish.usage.outputTokens.total ?? 0) > 50);
    assert.equal(finish.usage.outputTokens.reasoning, 0);
  });

  test('doGenerate returns the same decision as doStream, and tool call ids never repeat', async () => {
    const model = createMockModel();
    const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: '北京和上海的天气' }] }];
    const functionTools = [{ type: 'function' as const, name: 'get_weather', inputSchema: { type: 'object' as const, properties: { city: { type: 'string' as const } } } }];
    const generated = await model.doGenerate({ prompt, tools: functionTools });
    const other = await createMockModel().doGenerate({ prompt, tools: functionTools });
    const ids = [...generated.content, ...other.content].flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
    assert.equal(ids.length, 4);
    assert.equal(new Set(ids).size, 4);
    assert.deepEqual(generated.finishReason, { unified: 'tool-calls', raw: 'tool_calls' });
    assert.deepEqual(
      generated.content.map((part) => (part.type === 'tool-call' ? JSON.parse(part.input) : part)),
      [{ city: '北京' }, { city: '上海' }],
    );
  });

  test('an abort mid-stream errors the stream with the abort reason at once, even during a long pause', { timeout: 60_000 }, async () => {
    const controller = new AbortController();
    const { stream } = await createMockModel({ delayMs: 10_000 }).doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    assert.equal((await reader.read()).value?.type, 'stream-start');
    const pending = reader.read();
    const reason = new Error('user pressed Ctrl-C');
    const abortedAt = Date.now();
    controller.abort(reason);
    await assert.rejects(pending, (error) => error === reason);
    // Far below the pause, with room for a starved process: the abort cut it short.
    assert.ok(Date.now() - abortedAt < 5_000, 'the 10 s pause was cut short');
  });

  test('streamText with an abort signal stops promptly with delayMs > 0', { timeout: 60_000 }, async () => {
    const controller = new AbortController();
    const result = streamText({
      model: createMockModel({ delayMs: 30_000 }),
      messages: [{ role: 'user', content: 'hello' }],
      abortSignal: controller.signal,
      onError: () => {},
    });
    let abortedAt = Number.NaN;
    const seen: string[] = [];
    for await (const part of result.stream) {
      seen.push(part.type);
      if (part.type === 'text-start') {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    // Measured from the abort, not from the SDK's start, which a loaded machine slows down.
    assert.ok(Date.now() - abortedAt < 10_000, 'the stream ended long before the next 30 s pause');
    assert.ok(!seen.includes('text-delta'));
    assert.ok(seen.includes('abort') || seen.includes('error'), seen.join(','));
  });

  test('a signal aborted before the call rejects doStream', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(readAll(createMockModel(), 'hello', controller.signal), { name: 'AbortError' });
  });
});
