import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from 'node:test';
import { tool } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { Conversation } from '../../src/agent/context/conversation.ts';
import { findUnansweredToolCalls } from '../../src/agent/context/history-repair.ts';
import type { AgentEvent } from '../../src/agent/loop/events.ts';
import { agentLoop } from '../../src/agent/loop/agent-loop.ts';
import { type ApprovalPolicy, type TurnOptions } from '../../src/agent/loop/turn-options.ts';
import { scriptedModel } from '../helpers/scripted-model.ts';

// How the calls of one model step run: questions wait for the calls before them, results keep the
// model's order, the user's interrupt stops what has not started, and a long turn leaves nothing
// behind on the turn's abort signal.

/** Tools that write to `log` when they start and end; `slow` ends only after `quick` has ended. */
function loggingTools(log: string[], onWaiting: () => void = () => {}) {
  let quickEnded: () => void = () => {};
  const quickDone = new Promise<void>((resolve) => (quickEnded = resolve));
  return {
    slow: tool({
      description: 'slow',
      inputSchema: z.object({ key: z.string() }),
      execute: async ({ key }) => {
        log.push(`start ${key}`);
        await quickDone;
        // One more turn of the event loop: still running when every microtask has settled.
        await new Promise((resolve) => setImmediate(resolve));
        log.push(`end ${key}`);
        return `slow ${key}`;
      },
    }),
    quick: tool({
      description: 'quick',
      inputSchema: z.object({ key: z.string() }),
      execute: async ({ key }) => {
        log.push(`start ${key}`);
        log.push(`end ${key}`);
        quickEnded();
        return `quick ${key}`;
      },
    }),
    /** Runs until the user's interrupt reaches it. */
    waits: tool({
      description: 'waits',
      inputSchema: z.object({ key: z.string() }),
      execute: ({ key }, { abortSignal }) => {
        log.push(`start ${key}`);
        const stopped = new Promise<string>((_resolve, reject) =>
          abortSignal?.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
        );
        onWaiting();
        return stopped;
      },
    }),
    write_file: tool({
      description: 'write',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        log.push(`start write ${path}`);
        return `Wrote ${path}`;
      },
    }),
  };
}

/** write_file is asked about (each question noted in `log`) and approved; the rest need nothing. */
const askingAboutWrites = (log: string[]): ApprovalPolicy => ({
  decide: (toolName) => (toolName === 'write_file' ? 'ask' : 'not-needed'),
  ask: async (request) => {
    log.push(`ask ${request.toolName}`);
    return { approved: true };
  },
});

function options(model: MockLanguageModelV4, overrides: Partial<TurnOptions>): TurnOptions {
  return {
    model,
    tools: {},
    instructions: 'You are a test.',
    conversation: new Conversation(),
    userMessage: 'go',
    limits: { maxSteps: 50, tokenBudget: 1e9, maxIdenticalCalls: 3 },
    stepTimeoutMs: 30_000,
    toolTimeoutMs: 30_000,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    approval: askingAboutWrites([]),
    provider: { label: 'DashScope', model: 'qwen-plus', keyVariable: 'DASHSCOPE_API_KEY' },
    ...overrides,
  };
}

/** The tool results the model was sent in request `n`, as "id: text" in the order it read them. */
function resultsSentIn(model: MockLanguageModelV4, n: number): string[] {
  const prompt = model.doStreamCalls[n]?.prompt ?? [];
  return prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' ? [`${part.toolCallId}: ${String((part.output as { value?: unknown }).value)}`] : [],
        )
      : [],
  );
}

const outcomeIds = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === 'tool-result' || event.type === 'tool-error' || event.type === 'tool-denied' ? [event.toolCallId] : []));

describe('the calls of one step', () => {
  test('a question comes only after the calls before it have finished, and the results keep the order of the calls', async () => {
    const log: string[] = [];
    const model = scriptedModel([
      {
        calls: [
          { id: 'a', name: 'slow', input: { key: 'a' } },
          { id: 'b', name: 'quick', input: { key: 'b' } },
          { id: 'w', name: 'write_file', input: { path: 'x.txt' } },
          { id: 'c', name: 'quick', input: { key: 'c' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const events: AgentEvent[] = [];
    const turn = agentLoop(options(model, { tools: loggingTools(log), approval: askingAboutWrites(log) }));
    for await (const event of turn) events.push(event);

    const end = events.at(-1);
    assert.equal(end?.type === 'turn-end' && end.stopReason, 'completed');
    // b ends before a (a waits for it); the question waits for both.
    assert.deepEqual(log.slice(0, log.indexOf('ask write_file') + 1), ['start a', 'start b', 'end b', 'end a', 'ask write_file']);
    assert.deepEqual(outcomeIds(events), ['a', 'b', 'w', 'c'], 'what the user saw, in call order');
    assert.deepEqual(resultsSentIn(model, 1), ['a: slow a', 'b: quick b', 'w: Wrote x.txt', 'c: quick c'], 'what the model read, in call order');
  });

  test('interrupted while a call runs: the question after it is not asked and the calls after that do not start', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const model = scriptedModel([
      {
        calls: [
          { id: 'a', name: 'waits', input: { key: 'a' } },
          { id: 'w', name: 'write_file', input: { path: 'x.txt' } },
          { id: 'c', name: 'quick', input: { key: 'c' } },
        ],
      },
      { text: 'never asked for' },
    ]);
    const conversation = new Conversation();
    const events: AgentEvent[] = [];
    // The user presses Ctrl-C while the first call runs.
    const tools = loggingTools(log, () => setImmediate(() => controller.abort()));
    const turn = agentLoop(options(model, { tools, approval: askingAboutWrites(log), abortSignal: controller.signal, conversation }));
    for await (const event of turn) events.push(event);

    const end = events.at(-1);
    assert.equal(end?.type === 'turn-end' && end.stopReason, 'aborted');
    assert.deepEqual(log, ['start a'], 'nothing asked, nothing else started');
    assert.equal(model.doStreamCalls.length, 1);
    assert.deepEqual(findUnansweredToolCalls(conversation.messages), [], 'every call is answered in the history');
  });

  test('interrupted as a denial is shown: the calls after it do not start', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const model = scriptedModel([
      {
        calls: [
          { id: 'w', name: 'write_file', input: { path: 'x.txt' } },
          { id: 'b', name: 'quick', input: { key: 'b' } },
          { id: 'c', name: 'quick', input: { key: 'c' } },
        ],
      },
      { text: 'never asked for' },
    ]);
    const conversation = new Conversation();
    const approval: ApprovalPolicy = {
      decide: (toolName) => (toolName === 'write_file' ? { deny: 'plan mode' } : 'not-needed'),
      ask: async () => ({ approved: false }),
    };
    const events: AgentEvent[] = [];
    for await (const event of agentLoop(options(model, { tools: loggingTools(log), approval, abortSignal: controller.signal, conversation }))) {
      events.push(event);
      if (event.type === 'tool-denied') controller.abort();
    }

    const end = events.at(-1);
    assert.equal(end?.type === 'turn-end' && end.stopReason, 'aborted');
    assert.deepEqual(log, [], 'no call after the interrupt started');
    assert.deepEqual(findUnansweredToolCalls(conversation.messages), []);
  });
});

describe("the turn's abort signal", () => {
  test('keeps no listener from a step once the step is over, however long the turn', async () => {
    const controller = new AbortController();
    const steps = 40;
    let n = 0;
    const model = scriptedModel((index) =>
      index < steps - 1 ? { calls: [{ name: 'quick', input: { key: `k${n++}` } }] } : { text: 'Done.' },
    );
    const seen: number[] = [];
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      // Forty calls that differ only in a number: the circuit breaker, which would stop them, is set aside.
      const breaker = { nearIdenticalCalls: 1000, cycleRepeats: 1000, sameFailures: 1000, stepsWithoutProgress: 1000 };
      const limits = { maxSteps: 50, tokenBudget: 1e9, maxIdenticalCalls: 3, breaker };
      const turn = agentLoop(options(model, { tools: loggingTools([]), abortSignal: controller.signal, limits }));
      for await (const event of turn) {
        if (event.type === 'step-start' || event.type === 'turn-end') seen.push(getEventListeners(controller.signal, 'abort').length);
        if (event.type === 'turn-end') assert.equal(event.stopReason, 'completed', event.message);
      }
      // A warning is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.equal(model.doStreamCalls.length, steps);
    assert.deepEqual(seen, Array(steps + 1).fill(0), 'listeners on the signal at each step start and at the end');
    assert.deepEqual(warnings.filter((name) => name === 'MaxListenersExceededWarning'), []);
  });
});
