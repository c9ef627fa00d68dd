import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { z } from 'zod';
import {
  cut,
  hang,
  httpError,
  startDashScopeServer,
  text,
  toolCalls,
  validateChatRequest,
  type DashScopeServer,
  type DashScopeServerOptions,
} from './dashscope-server.ts';
import { closeAtEnd } from './served.ts';

const serve = async (options: DashScopeServerOptions): Promise<DashScopeServer> => closeAtEnd(await startDashScopeServer(options));

const weatherTools = {
  get_weather: tool({ description: 'Current weather for a city.', inputSchema: z.object({ city: z.string() }) }),
  get_time: tool({ description: 'Current time in a zone.', inputSchema: z.object({ zone: z.string() }) }),
} satisfies ToolSet;

/** Runs one real provider step against the server and collects every stream part. */
async function runStep(server: DashScopeServer, options: { messages?: ModelMessage[]; tools?: ToolSet } = {}) {
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' }).chat('qwen-plus');
  const result = streamText({
    model,
    instructions: 'You are Sylvan.',
    messages: options.messages ?? [{ role: 'user', content: '北京天气怎么样？' }],
    tools: options.tools ?? weatherTools,
    includeRawChunks: true,
    maxRetries: 0,
    onError: () => {},
  });
  const parts = [];
  // A connection lost mid-stream is thrown from the iteration (ai v7), not yielded as an error part.
  let thrown: unknown;
  try {
    for await (const part of result.stream) parts.push(part);
  } catch (error) {
    thrown = error;
  }
  // After a failure (thrown or an error part) the promise rejects; callers then only look at the parts.
  const responseMessages = await Promise.resolve(result.responseMessages).catch((): ModelMessage[] => []);
  return { parts, responseMessages, thrown };
}

describe('DashScope test server driven by the real @ai-sdk/openai provider', () => {
  test('streams text in several deltas and records a valid request', async () => {
    const server = await serve({ replies: [text('你好，我是 Sylvan。How can I help?', { chunkSize: 4 })] });
    const { parts } = await runStep(server);

    const deltas = parts.flatMap((part) => (part.type === 'text-delta' && part.text !== '' ? [part.text] : []));
    assert.ok(deltas.length > 3, `expected several deltas, got ${deltas.length}`);
    assert.equal(deltas.join(''), '你好，我是 Sylvan。How can I help?');
    const request = server.requests[0];
    assert.equal(request?.invalid, undefined);
    assert.equal(request?.headers.authorization, 'Bearer test-key');
    assert.deepEqual(request?.body?.stream_options, { include_usage: true });
    assert.deepEqual(request?.body?.messages?.[0], { role: 'system', content: 'You are Sylvan.' });
  });

  for (const continuationName of ['omit', 'empty'] as const) {
    test(`joins a tool call whose continuation chunks carry "id": "" (name ${continuationName})`, async () => {
      const server = await serve({ replies: [toolCalls([{ name: 'get_weather', arguments: '{"city":"北京"}' }], { continuationName })] });
      const { parts } = await runStep(server);

      const continuations = parts.filter((part) => part.type === 'raw' && JSON.stringify(part.rawValue).includes('"id":""'));
      assert.ok(continuations.length >= 2, 'the wire stream should split the arguments over continuation chunks');
      const calls = parts.filter((part) => part.type === 'tool-call');
      assert.equal(calls.length, 1);
      assert.equal(calls[0]?.toolName, 'get_weather');
      assert.deepEqual(calls[0]?.input, { city: '北京' });
      assert.match(calls[0]?.toolCallId ?? '', /^call_[0-9a-f]{22}$/);
      const finish = parts.find((part) => part.type === 'finish-step');
      assert.equal(finish?.finishReason, 'tool-calls');
    });
  }

  test('parses two tool calls from one response, after leading text', async () => {
    const server = await serve({
      replies: [toolCalls([{ name: 'get_weather', arguments: { city: '上海' } }, { name: 'get_time', arguments: '{"zone":"Asia/Shanghai"}' }], { text: '我来查一下。' })],
    });
    const { parts } = await runStep(server);

    const calls = parts.flatMap((part) => (part.type === 'tool-call' ? [[part.toolName, part.input]] : []));
    assert.deepEqual(calls, [['get_weather', { city: '上海' }], ['get_time', { zone: 'Asia/Shanghai' }]]);
    const textOut = parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : [])).join('');
    assert.equal(textOut, '我来查一下。');
  });

  test('reports scripted usage, or an estimate, on the finish-step part', async () => {
    const server = await serve({ replies: [text('ok', { usage: { promptTokens: 120, completionTokens: 7 } }), text('ok')] });
    const scripted = (await runStep(server)).parts.find((part) => part.type === 'finish-step');
    assert.equal(scripted?.usage.inputTokens, 120);
    assert.equal(scripted?.usage.outputTokens, 7);
    assert.equal(scripted?.usage.totalTokens, 127);

    const estimated = (await runStep(server)).parts.find((part) => part.type === 'finish-step');
    assert.ok((estimated?.usage.inputTokens ?? 0) > 10, 'the estimate should grow with the request');
    assert.equal(estimated?.usage.outputTokens, 1);
  });

  test('a 401 surfaces as an APICallError carrying DashScope\'s message', async () => {
    const server = await serve({ replies: [httpError(401)] });
    const { parts } = await runStep(server);

    const error = parts.find((part) => part.type === 'error')?.error;
    assert.ok(APICallError.isInstance(error), `expected APICallError, got ${String(error)}`);
    assert.equal(error.statusCode, 401);
    assert.equal(error.message, 'Incorrect API key provided.');
  });

  test('answers 400 with DashScope\'s error when a tool call has no result', async () => {
    const server = await serve({ replies: [toolCalls([{ name: 'get_weather', arguments: '{"city":"北京"}' }]), text('unused')] });
    const first = await runStep(server);
    const call = first.parts.find((part) => part.type === 'tool-call');
    // ai v7 refuses to send a dangling call itself (MissingToolResultsError), so post the body the provider would build.
    const dangling = {
      model: 'qwen-plus',
      stream: true,
      messages: [
        { role: 'user', content: '北京天气怎么样？' },
        { role: 'assistant', content: null, tool_calls: [{ id: call?.toolCallId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"北京"}' } }] },
        { role: 'user', content: '然后呢？' },
      ],
    };
    const response = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify(dangling) });

    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { message: string; code: string; type: string } };
    assert.match(body.error.message, /^<400> InternalError\.Algo\.InvalidParameter: An assistant message with "tool_calls" must be followed by tool messages/);
    assert.equal(body.error.code, 'invalid_parameter_error');
    assert.deepEqual(server.requests.map((request) => request.invalid === undefined), [true, false]);
    assert.match(server.requests[1]?.invalid ?? '', /message\[2\]\.role/);
  });

  test('accepts the follow-up request once every tool call has its result', async () => {
    const server = await serve({ replies: [toolCalls([{ name: 'get_weather', arguments: '{"city":"北京"}' }]), text('晴，25°C。')] });
    const tools = { get_weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `${city}: sunny, 25°C` }) };
    const question: ModelMessage = { role: 'user', content: '北京天气怎么样？' };
    const first = await runStep(server, { tools });
    const second = await runStep(server, { tools, messages: [question, ...first.responseMessages] });

    assert.equal(second.parts.filter((part) => part.type === 'text-delta').map((part) => part.text).join(''), '晴，25°C。');
    assert.deepEqual(server.requests.map((request) => request.invalid), [undefined, undefined]);
    assert.deepEqual(server.requests[1]?.body?.messages?.map((message) => message.role), ['system', 'user', 'assistant', 'tool']);
  });

  test('a cut stream ends the step with an error after the text that did arrive', async () => {
    const server = await serve({ replies: [cut('部分回答')] });
    const { parts, thrown } = await runStep(server);

    assert.equal(parts.filter((part) => part.type === 'text-delta').map((part) => part.text).join(''), '部分回答');
    assert.ok(APICallError.isInstance(thrown));
    assert.match(String(thrown.cause), /terminated/);
    assert.ok(!parts.some((part) => part.type === 'finish-step'), 'no finish chunk was sent');
  });

  test('close() returns while a request hangs before any response', { timeout: 5000 }, async () => {
    let signalArrival: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (signalArrival = resolve));
    const server = await startDashScopeServer({ respond: () => (signalArrival(), hang()) });
    const step = runStep(server);
    await arrived;
    await server.close();

    const { parts, thrown } = await step;
    assert.ok(thrown !== undefined || parts.some((part) => part.type === 'error'), 'the client should see the connection drop');
  });

  test('close() returns while a stream hangs after some text', { timeout: 5000 }, async () => {
    const server = await startDashScopeServer({ replies: [hang({ text: '让我想想' })] });
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' }).chat('qwen-plus');
    const result = streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => {} });
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const part of result.stream) {
        if (part.type !== 'text-delta' || part.text === '') continue;
        seen.push(part.text);
        await server.close();
      }
    }, APICallError.isInstance);
    assert.deepEqual(seen, ['让我想想']);
  });

  test('extra requests beyond the script get a 500 that says so', async () => {
    const server = await serve({ replies: [] });
    const { parts } = await runStep(server);

    const error = parts.find((part) => part.type === 'error')?.error;
    assert.ok(APICallError.isInstance(error));
    assert.equal(error.statusCode, 500);
    assert.match(error.message, /no reply scripted for request #1/);
  });
});

describe('validateChatRequest', () => {
  const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } };
  const user = { role: 'user', content: 'hi' };

  test('accepts a conversation whose tool calls are all answered', () => {
    const messages = [{ role: 'system', content: 's' }, user, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_1', content: 'sunny' }];
    assert.equal(validateChatRequest({ model: 'qwen-plus', messages }), undefined);
  });

  test('rejects empty messages, a late system message, a dangling call and an unknown tool id', () => {
    assert.match(validateChatRequest({ model: 'qwen-plus', messages: [] }) ?? '', /non-empty/);
    assert.match(validateChatRequest({ model: 'qwen-plus', messages: [user, { role: 'system', content: 's' }] }) ?? '', /system message must be the first/);
    assert.match(
      validateChatRequest({ model: 'qwen-plus', messages: [user, { role: 'assistant', tool_calls: [call] }, user] }) ?? '',
      /did not have response messages: message\[2\]/,
    );
    assert.match(
      validateChatRequest({ model: 'qwen-plus', messages: [user, { role: 'tool', tool_call_id: 'call_9', content: 'x' }] }) ?? '',
      /must be a response to a preceeding message with "tool_calls"/,
    );
  });
});

test('answers 404 and records the request for any other route', async () => {
  const server = await serve({ replies: [text('unused')] });
  const response = await fetch(`${server.baseURL}/models`);
  assert.equal(response.status, 404);
  assert.match(server.requests[0]?.invalid ?? '', /No route for GET \/compatible-mode\/v1\/models/);
});
