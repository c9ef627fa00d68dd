import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAlibaba } from '@ai-sdk/alibaba';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { agentLoop } from '../../src/agent/loop/agent-loop.ts';
import { Conversation } from '../../src/agent/context/conversation.ts';
import type { AgentEvent } from '../../src/agent/loop/events.ts';
import { guardedFetch } from '../../src/providers/guarded-fetch.ts';

// A connection reset after three chunks, read by a consumer slower than the network (the terminal
// drawing the answer): every chunk that arrived reaches the user, then one line. An errored body
// used to error the SDK's chain of streams, which drops what its queues still held — the tmux
// finding "lost the last chunk" (here all but the first: the three arrive in one read). No network
// and no sleeps: the body errors only once its chunks were read, and the consumer waits for that
// error before it reads on.

const chunk = (delta: object) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'qwen-plus', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
const PIECES = ['One, ', 'two, ', 'three.'];

/** undici's error for a connection reset while a body is read. */
const connectionReset = (): Error =>
  new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { name: 'SocketError', code: 'UND_ERR_SOCKET' }) });

/** A fetch whose one 200 streams three text chunks, then fails as a reset connection does; `cut` settles then. */
function cutAfterThreeChunks() {
  let raise: () => void = () => {};
  const cut = new Promise<void>((resolve) => {
    raise = resolve;
  });
  const fetch = (async () => {
    const encoder = new TextEncoder();
    // As they came over loopback: in one read, the reset in the next.
    const parts = [[chunk({ role: 'assistant', content: '' }), ...PIECES.map((content) => chunk({ content }))].join('')];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next !== undefined) {
          controller.enqueue(encoder.encode(next));
          return;
        }
        controller.error(connectionReset());
        raise();
      },
    }, { highWaterMark: 0 });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }) as typeof globalThis.fetch;
  return { fetch, cut };
}

const provider = { label: 'DashScope', model: 'qwen-plus', baseURL: 'http://127.0.0.1:9/v1' };

async function slowTurn(model: LanguageModel, cut: Promise<void>) {
  const conversation = new Conversation();
  const events: AgentEvent[] = [];
  const turn = agentLoop({
    model,
    tools: {},
    instructions: 'You are a test.',
    conversation,
    userMessage: 'count to three',
    limits: { maxSteps: 5, tokenBudget: 1_000_000, maxIdenticalCalls: 3 },
    stepTimeoutMs: 60_000,
    toolTimeoutMs: 60_000,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    approval: { decide: () => 'not-needed', ask: async () => ({ approved: false }) },
    provider,
  });
  for await (const event of turn) {
    events.push(event);
    // The user's terminal is still drawing the first words when the connection breaks.
    if (event.type === 'text-delta' && events.filter((seen) => seen.type === 'text-delta').length === 1) await cut;
  }
  const shown = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
  const end = events.at(-1);
  assert.equal(end?.type, 'turn-end');
  return { shown, end: end as Extract<AgentEvent, { type: 'turn-end' }>, conversation };
}

describe('a connection reset after three chunks, read by a slow consumer', { timeout: 30_000 }, () => {
  for (const [name, make] of [
    ['DashScope (@ai-sdk/alibaba)', (fetch: typeof globalThis.fetch) => createAlibaba({ baseURL: provider.baseURL, apiKey: 'k', fetch }).chatModel('qwen-plus')],
    ['an OpenAI-compatible server', (fetch: typeof globalThis.fetch) => createOpenAICompatible({ name: 'c', baseURL: provider.baseURL, apiKey: 'k', fetch }).chatModel('m')],
  ] as const) {
    test(`${name}: all three chunks are shown, then the line; the history keeps the question only`, async () => {
      const server = cutAfterThreeChunks();
      const { shown, end, conversation } = await slowTurn(make(guardedFetch({ maxRetries: 0, fetch: server.fetch })), server.cut);

      assert.equal(shown, PIECES.join(''));
      assert.equal(end.stopReason, 'error');
      assert.match(end.message ?? '', /^The connection to http:\/\/127\.0\.0\.1:9\/v1 was cut off before the answer ended; what arrived is shown but not kept/);
      assert.deepEqual(conversation.messages.map((message) => message.role), ['user']);
    });
  }
});
