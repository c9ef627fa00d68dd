import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LanguageModelV4Message } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { tokenUsageOf } from '../../src/shared/token-usage.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { Config } from '../../src/config/config.ts';
import { CacheMarkerPlanner, MAX_CACHE_MARKERS } from '../../src/providers/cache-markers.ts';
import { createRuntime } from '../../src/runtime/create-runtime.ts';
import { DashScopeCache, EXPLICIT_VALIDITY_MS } from '../helpers/dashscope-cache.ts';
import { startDashScopeServer, text, toolCalls, type ChatMessage, type DashScopeServer, type RecordedRequest } from '../helpers/dashscope-server.ts';
import { loadModelFactory } from '../../src/providers/load-model-factory.ts';

const approveAll = { decide: () => 'allow' as const, ask: async () => ({ approved: true }) };

/** Indices of the messages whose content carries a `cache_control` marker, and how many markers in all. */
function markersOf(request: RecordedRequest): { at: number[]; count: number } {
  const at: number[] = [];
  let count = 0;
  (request.body?.messages ?? []).forEach((message: ChatMessage, index) => {
    const parts = Array.isArray(message.content) ? (message.content as Array<Record<string, unknown>>) : [];
    const marked = parts.filter((part) => part.cache_control !== undefined);
    for (const part of marked) assert.deepEqual(part.cache_control, { type: 'ephemeral' });
    count += marked.length;
    if (marked.length > 0) at.push(index);
  });
  return { at, count };
}

interface Session {
  server: DashScopeServer;
  cache: DashScopeCache;
  bills: ReturnType<DashScopeCache['bill']>[];
  clock: { now: number };
}

/** A DashScope loopback server that bills every request by the documented cache rules; each turn a tool call, then an answer. */
async function cachingServer(): Promise<Session> {
  const clock = { now: 0 };
  const cache = new DashScopeCache(() => clock.now);
  const bills: Session['bills'] = [];
  const server = await startDashScopeServer({
    respond: (request) => {
      clock.now += 20_000;
      const bill = cache.bill(request.body ?? {});
      bills.push(bill);
      const usage = { ...bill, completionTokens: 20 };
      const messages = request.body?.messages ?? [];
      return messages.at(-1)?.role === 'user'
        ? toolCalls([{ name: 'calculate', arguments: { expression: `(2+3)*${messages.length}` } }], { usage })
        : text(`结果是 ${messages.length}。${'The parentheses are evaluated first, then the product. '.repeat(8)}`, { usage });
    },
  });
  return { server, cache, bills, clock };
}

describe('DashScope explicit cache markers, through the runtime, against a loopback server that applies the cache rules', { timeout: 60_000 }, () => {
  let home: string;
  let workspace: string;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'sylvan-cache-home-'));
    workspace = mkdtempSync(join(tmpdir(), 'sylvan-cache-ws-'));
  });
  after(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  const configFor = (server: DashScopeServer, env: Record<string, string>): Config => {
    const config = loadConfig([], { DASHSCOPE_API_KEY: 'k', DASHSCOPE_BASE_URL: server.baseURL, SYLVAN_HOME: home, ...env }, workspace);
    if ('help' in config || 'version' in config) throw new Error('loadConfig answered help/version');
    return config;
  };

  async function runTurns(config: Config, turns: number): Promise<void> {
    const runtime = createRuntime(config, { modelFactory: await loadModelFactory(config) });
    try {
      for (let turn = 0; turn < turns; turn++) {
        const events = runtime.runTurn(`(2+3)*4 等于多少？ turn ${turn}`, new AbortController().signal, approveAll);
        let step = await events.next();
        while (!step.done) step = await events.next();
        assert.equal(step.value, 'completed');
      }
    } finally {
      runtime.close();
    }
  }

  test('qwen-plus gets at most 4 markers a request: the system prompt, the end of the request, and the end of the step before', async () => {
    const session = await cachingServer();
    try {
      await runTurns(configFor(session.server, { SYLVAN_MODEL: 'qwen-plus' }), 6);
      const requests = session.server.requests.filter((request) => request.invalid === undefined);
      assert.equal(requests.length, 12);
      let previousLast: number | undefined;
      for (const [index, request] of requests.entries()) {
        const { at, count } = markersOf(request);
        const last = (request.body?.messages?.length ?? 0) - 1;
        assert.ok(count <= MAX_CACHE_MARKERS, `request ${index}: ${count} markers`);
        assert.equal(count, at.length, `request ${index}: one marker a message`);
        assert.equal(request.body?.messages?.[0]?.role, 'system');
        assert.ok(at.includes(0), `request ${index}: the system prompt (instructions and tools) is marked`);
        assert.ok(at.includes(last), `request ${index}: the end of the request is marked`);
        if (previousLast !== undefined) assert.ok(at.includes(previousLast), `request ${index}: the previous step's end (${previousLast}) is marked: ${at.join(', ')}`);
        previousLast = last;
      }
      // The bills: the first request creates; every later one hits all the step before sent.
      assert.equal(session.bills[0]?.cachedTokens, 0);
      assert.ok((session.bills[0]?.cacheCreationTokens ?? 0) > 1_024);
      for (let index = 1; index < session.bills.length; index++) {
        const bill = session.bills[index]!;
        assert.equal(bill.cachedTokens, session.bills[index - 1]!.promptTokens, `request ${index} hits the whole previous request`);
        assert.equal(bill.cacheCreationTokens, bill.promptTokens - bill.cachedTokens, `request ${index} creates only what is new`);
      }
      assert.equal(session.cache.tooManyMarkers, 0);
    } finally {
      await session.server.close();
    }
  });

  for (const [label, env] of [
    ['SYLVAN_CACHE=off', { SYLVAN_MODEL: 'qwen-plus', SYLVAN_CACHE: 'off' }],
    ['SYLVAN_CACHE=implicit', { SYLVAN_MODEL: 'qwen-plus', SYLVAN_CACHE: 'implicit' }],
    ['a -latest alias the explicit cache does not take', { SYLVAN_MODEL: 'qwen-plus-latest' }],
  ] as const) {
    test(`${label}: no marker is sent`, async () => {
      const session = await cachingServer();
      try {
        await runTurns(configFor(session.server, env), 2);
        assert.equal(session.server.requests.length, 4);
        for (const request of session.server.requests) assert.equal(markersOf(request).count, 0, request.rawBody.slice(0, 200));
        assert.ok(session.bills.every((bill) => bill.markers === 0 && bill.cachedTokens === 0));
      } finally {
        await session.server.close();
      }
    });
  }

  test("the provider's cached and cache-creation counts reach TokenUsage, with the explicit hits told apart", async () => {
    const session = await cachingServer();
    try {
      const config = configFor(session.server, { SYLVAN_MODEL: 'qwen-plus' });
      const model = (await loadModelFactory(config))(config);
      const usages = [];
      const instructions = 'You are a test. '.repeat(400);
      for (const question of ['first question', 'second question']) {
        const result = streamText({ model, instructions, messages: [{ role: 'user', content: 'the same opening' }, { role: 'user', content: question }] });
        for await (const part of result.stream) if (part.type === 'finish-step') usages.push(tokenUsageOf(part.usage));
      }
      const [first, second] = usages;
      assert.equal(first?.cachedInputTokens, 0);
      assert.equal(first?.cacheCreationInputTokens, session.bills[0]?.cacheCreationTokens);
      assert.ok((second?.cachedInputTokens ?? 0) > 1_024, 'the system prompt was hit');
      assert.equal(second?.explicitCachedInputTokens, second?.cachedInputTokens);
      assert.equal(second?.inputTokens, session.bills[1]?.promptTokens);
    } finally {
      await session.server.close();
    }
  });
});

describe('CacheMarkerPlanner', () => {
  const system = (text: string): LanguageModelV4Message => ({ role: 'system', content: text });
  const user = (text: string): LanguageModelV4Message => ({ role: 'user', content: [{ type: 'text', text }] });
  const callsAndResults = (count: number, step: number): LanguageModelV4Message[] => [
    {
      role: 'assistant',
      content: Array.from({ length: count }, (_, index) => ({ type: 'tool-call' as const, toolCallId: `c${step}-${index}`, toolName: 'read_file', input: { path: `f${index}` } })),
    },
    {
      role: 'tool',
      content: Array.from({ length: count }, (_, index) => ({
        type: 'tool-result' as const,
        toolCallId: `c${step}-${index}`,
        toolName: 'read_file',
        output: { type: 'text' as const, value: `line ${index}\n`.repeat(40) },
      })),
    },
  ];

  test('marks the end of the step before even when this step added more than 20 blocks, and never more than 4', () => {
    const planner = new CacheMarkerPlanner();
    const first = [system('You are a test. '.repeat(400)), user('read thirty files')];
    assert.deepEqual(planner.plan(first, undefined).sort(), [0, 1]);
    // Thirty results: the server's 20-block look-back from the end cannot reach the previous end (index 1).
    const second = [...first, ...callsAndResults(30, 1)];
    const marked = planner.plan(second, undefined);
    assert.ok(marked.length <= 4);
    assert.deepEqual([...marked].sort((a, b) => a - b), [0, 1, 3]);
  });

  test('a prefix is recognised by what is sent: new objects with the same content repeat it, a step whose reasoning is since left out does not', () => {
    const planner = new CacheMarkerPlanner();
    const instructions = 'You are a test. '.repeat(400);
    const answered = (): LanguageModelV4Message => ({ role: 'assistant', content: [{ type: 'reasoning', text: 'thinking' }, { type: 'text', text: 'done' }] });
    assert.deepEqual(planner.plan([system(instructions), user('one'), answered()], undefined).sort(), [0, 2]);
    // Every object new, as the SDK builds each request, and a key holding undefined, which JSON leaves out.
    const again: LanguageModelV4Message[] = [
      system(instructions),
      user('one'),
      { role: 'assistant', content: [{ type: 'reasoning', text: 'thinking' }, { type: 'text', text: 'done', providerOptions: undefined }] },
      ...callsAndResults(1, 1),
    ];
    assert.deepEqual(planner.plan(again, undefined).sort(), [0, 2, 4]);
    // The next question: @ai-sdk/alibaba no longer sends the step's reasoning, so no earlier prefix is repeated.
    assert.deepEqual(planner.plan([...again, user('two')], undefined).sort(), [0, 5]);
  });

  test('a prefix under 1,024 tokens is not marked, since DashScope creates no block for it', () => {
    const planner = new CacheMarkerPlanner();
    assert.deepEqual(planner.plan([system('short'), user('hello')], undefined), []);
  });

  test('with 5 minutes gone the simulator creates again: the rules the bench relies on', () => {
    let now = 0;
    const cache = new DashScopeCache(() => now);
    const body = {
      messages: [{ role: 'system', content: [{ type: 'text', text: 'x '.repeat(3000), cache_control: { type: 'ephemeral' } }] }, { role: 'user', content: 'hi' }],
    };
    const created = cache.bill(body);
    assert.ok((created.cacheCreationTokens ?? 0) > 1_024);
    now += EXPLICIT_VALIDITY_MS - 1;
    assert.equal(cache.bill(body).cachedTokens, created.cacheCreationTokens, 'a hit within 5 minutes (and the clock resets)');
    now += EXPLICIT_VALIDITY_MS;
    assert.equal(cache.bill(body).cachedTokens, 0, 'expired after 5 minutes without a hit');
  });
});
