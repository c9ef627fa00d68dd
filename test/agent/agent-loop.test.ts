import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APICallError, registerTelemetry, tool, type ModelMessage } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { compactHistory } from '../../src/agent/context/compact.ts';
import { ContextFitter } from '../../src/agent/context/context-fitter.ts';
import { Conversation } from '../../src/agent/context/conversation.ts';
import type { AgentEvent } from '../../src/agent/loop/events.ts';
import { findUnansweredToolCalls } from '../../src/agent/context/history-repair.ts';
import { INTERRUPTED_TOOL_RESULT_TEXT } from '../../src/agent/context/history-repair.ts';
import { agentLoop } from '../../src/agent/loop/agent-loop.ts';
import { type ApprovalPolicy, type TurnOptions } from '../../src/agent/loop/turn-options.ts';
import { warmUpFirstRequest } from '../../src/providers/warm-up.ts';
import { scriptedModel } from '../helpers/scripted-model.ts';

function makeTools(log: string[]) {
  return {
    lookup: tool({
      description: 'look something up',
      inputSchema: z.object({ key: z.string() }),
      execute: async ({ key }) => {
        log.push(`lookup:${key}`);
        return `value of ${key}`;
      },
    }),
    write_file: tool({
      description: 'write',
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: async ({ path }) => {
        log.push(`write:${path}`);
        return `Wrote ${path}`;
      },
    }),
  };
}

const noApproval: ApprovalPolicy = {
  decide: (toolName) => (toolName === 'write_file' ? { deny: 'needs --yes' } : 'not-needed'),
  ask: async () => ({ approved: false }),
};

/** A turn's options with this file's defaults: `overrides` replace any of them. */
const turnOptions = (model: MockLanguageModelV4, overrides: Partial<TurnOptions> = {}): TurnOptions => ({
  model,
  tools: makeTools([]),
  instructions: 'You are a test.',
  conversation: new Conversation(),
  userMessage: 'hello',
  limits: { maxSteps: 5, tokenBudget: 1_000_000, maxIdenticalCalls: 3 },
  stepTimeoutMs: 5_000,
  toolTimeoutMs: 5_000,
  maxRetries: 0,
  abortSignal: new AbortController().signal,
  approval: noApproval,
  provider: { label: 'DashScope', model: 'qwen-plus', keyVariable: 'DASHSCOPE_API_KEY' },
  ...overrides,
});

async function run(model: MockLanguageModelV4, overrides: Partial<TurnOptions> = {}) {
  const log: string[] = [];
  const conversation = overrides.conversation ?? new Conversation();
  const events: AgentEvent[] = [];
  const turn = agentLoop(turnOptions(model, { tools: makeTools(log), ...overrides, conversation }));
  for await (const event of turn) events.push(event);
  const end = events.at(-1);
  assert.equal(end?.type, 'turn-end');
  return { events, end: end as Extract<AgentEvent, { type: 'turn-end' }>, conversation, log };
}

const roles = (messages: readonly ModelMessage[]) => messages.map((message) => message.role);

/** A Standard Schema whose JSON Schema is counted as it is made (zod's is made the same way, by the SDK). */
function countedSchema() {
  let made = 0;
  const counted = {
    '~standard': {
      version: 1,
      vendor: 'counted',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => (made++, { type: 'object', properties: { key: { type: 'string' } } }) },
    },
  };
  return { counted, conversions: () => made };
}

const sourceRoot = fileURLToPath(new URL('../../src', import.meta.url));

describe('agentLoop: one model request per step, the SDK running no loop of its own', () => {
  test('a turn of three steps makes exactly three streamText calls, three model steps and three requests', async () => {
    const operations: string[] = [];
    let stepsStarted = 0;
    // The SDK's public telemetry hook sees every streamText call and every step it runs.
    registerTelemetry({
      onStart: (event: { operationId?: string }) => void operations.push(String(event.operationId)),
      onStepStart: () => void stepsStarted++,
    });
    const model = scriptedModel([
      { calls: [{ name: 'lookup', input: { key: 'a' } }] },
      { calls: [{ name: 'lookup', input: { key: 'b' } }] },
      { text: 'Both looked up.' },
    ]);
    const { end, log } = await run(model, { approval: { decide: () => 'not-needed', ask: async () => ({ approved: true }) } });
    assert.equal(end.stopReason, 'completed');
    assert.deepEqual(log, ['lookup:a', 'lookup:b']);
    assert.equal(model.doStreamCalls.length, 3, 'three requests reached the model');
    assert.deepEqual(operations.filter((id) => id.includes('streamText')), ['ai.streamText', 'ai.streamText', 'ai.streamText'], `operations: ${operations.join(', ')}`);
    assert.equal(stepsStarted, 3, 'each streamText ran exactly one step');
  });

  test("a tool's JSON Schema is worked out once, not again for every request", async () => {
    const { counted, conversions } = countedSchema();
    const log: string[] = [];
    const lookup = tool({ description: 'Looks a key up.', inputSchema: counted as never, execute: async ({ key }: { key: string }) => (log.push(key), key.toUpperCase()) });
    const model = scriptedModel([
      { calls: [{ name: 'lookup', input: { key: 'a' } }] },
      { calls: [{ name: 'lookup', input: { key: 'b' } }] },
      { text: 'Both looked up.' },
    ]);
    const { end } = await run(model, { tools: { lookup }, approval: { decide: () => 'not-needed', ask: async () => ({ approved: true }) } });
    assert.equal(end.stopReason, 'completed');
    assert.deepEqual(log, ['a', 'b']);
    assert.equal(model.doStreamCalls.length, 3);
    assert.deepEqual(model.doStreamCalls.map((call) => (call.tools?.[0] as { inputSchema?: unknown } | undefined)?.inputSchema), Array(3).fill({ type: 'object', properties: { key: { type: 'string' } }, additionalProperties: false }));
    assert.equal(conversions(), 1, 'three requests, one conversion');
  });

  test("the runtime's warm-up makes the conversion the first request sends, not one of its own", async () => {
    const { counted, conversions } = countedSchema();
    const lookup = tool({ description: 'Looks a key up.', inputSchema: counted as never, execute: async ({ key }: { key: string }) => key });
    warmUpFirstRequest({ lookup });
    assert.equal(conversions(), 1, 'the warm-up converted the schema');
    const model = scriptedModel([{ calls: [{ name: 'lookup', input: { key: 'a' } }] }, { text: 'Done.' }]);
    const { end } = await run(model, { tools: { lookup }, approval: { decide: () => 'not-needed', ask: async () => ({ approved: true }) } });
    assert.equal(end.stopReason, 'completed');
    assert.equal(model.doStreamCalls.length, 2);
    assert.equal(conversions(), 1, 'the requests sent what the warm-up made');
  });

  test('a compaction offers the tools as the loop declared them: the same JSON Schema, not worked out again', async () => {
    const { counted, conversions } = countedSchema();
    const lookup = tool({ description: 'Looks a key up.', inputSchema: counted as never, execute: async () => 'x' });
    const model = scriptedModel([{ text: 'Done.' }, { text: 'The user asked nothing yet.' }]);
    const { conversation } = await run(model, { tools: { lookup }, approval: { decide: () => 'not-needed', ask: async () => ({ approved: true }) } });
    const compacted = await compactHistory({
      model,
      tools: { lookup },
      instructions: 'You are a test.',
      messages: [...conversation.messages],
      abortSignal: new AbortController().signal,
      timeoutMs: 10_000,
      maxRetries: 0,
      provider: { label: 'DashScope', model: 'qwen-plus', keyVariable: 'DASHSCOPE_API_KEY' },
    });
    assert.equal(compacted.ok, true);
    assert.equal(model.doStreamCalls.length, 2);
    assert.deepEqual(model.doStreamCalls[1]?.tools, model.doStreamCalls[0]?.tools, 'the summary request offers the tools byte for byte as the turn did');
    assert.equal(conversions(), 1, 'one conversion for the turn and the summary');
  });

  test('src/ has no stopWhen, prepareStep or onStepEnd', () => {
    const files = readdirSync(sourceRoot, { recursive: true }).map(String).filter((file) => file.endsWith('.ts'));
    assert.ok(files.length > 50, `found the sources (${files.length} files)`);
    const offenders = files.filter((file) => /\b(stopWhen|prepareStep|onStepEnd)\b/.test(readFileSync(join(sourceRoot, file), 'utf8')));
    assert.deepEqual(offenders, []);
  });
});

describe('agentLoop', () => {
  test('runs a tool, feeds the result back, and stops when the model answers', async () => {
    const model = scriptedModel([{ calls: [{ name: 'lookup', input: { key: 'a' }, id: 'c1' }] }, { text: 'The value is A.' }]);
    const { events, end, conversation, log } = await run(model);

    assert.equal(end.stopReason, 'completed');
    assert.deepEqual(log, ['lookup:a']);
    assert.deepEqual(
      events.filter((event) => event.type === 'tool-call' || event.type === 'tool-result').map((event) => event.type),
      ['tool-call', 'tool-result'],
    );
    assert.equal(events.filter((event) => event.type === 'text-delta').map((event) => (event as { text: string }).text).join(''), 'The value is A.');
    assert.deepEqual(roles(conversation.messages), ['user', 'assistant', 'tool', 'assistant']);
    // The second request carries the tool result, answering the right call, after the system prompt.
    const secondPrompt = model.doStreamCalls[1]!.prompt;
    assert.equal(secondPrompt[0]!.role, 'system');
    const toolMessage = secondPrompt.find((message) => message.role === 'tool');
    assert.ok(toolMessage && Array.isArray(toolMessage.content));
    const result = toolMessage.content[0] as { toolCallId: string; output: { value: unknown } };
    assert.equal(result.toolCallId, 'c1');
    assert.equal(result.output.value, 'value of a');
    assert.equal(end.usage.inputTokens, 200);
  });

  test('each step is in the history by the time its step-end is seen, and announced in order', async () => {
    const model = scriptedModel([
      { calls: [{ name: 'lookup', input: { key: 'a' } }] },
      { calls: [{ name: 'lookup', input: { key: 'b' } }] },
      { text: 'Both.' },
    ]);
    const conversation = new Conversation();
    const seen: string[] = [];
    for await (const event of agentLoop(turnOptions(model, { conversation }))) {
      if (event.type === 'step-start' || event.type === 'step-end') seen.push(`${event.type} ${event.step}: ${roles(conversation.messages).join(',')}`);
      if (event.type === 'tool-call' || event.type === 'tool-result' || event.type === 'turn-end') seen.push(event.type);
    }
    assert.deepEqual(seen, [
      'step-start 1: user',
      'tool-call',
      'tool-result',
      'step-end 1: user,assistant,tool',
      'step-start 2: user,assistant,tool',
      'tool-call',
      'tool-result',
      'step-end 2: user,assistant,tool,assistant,tool',
      'step-start 3: user,assistant,tool,assistant,tool',
      'step-end 3: user,assistant,tool,assistant,tool,assistant',
      'turn-end',
    ]);
  });

  test('bad calls (unknown tool, schema violation, broken JSON) go back to the model as errors', async () => {
    const model = scriptedModel([
      {
        calls: [
          { name: 'no_such_tool', input: {} },
          { name: 'lookup', input: { key: 42 } },
          { name: 'lookup', input: '{"key": "a"' },
        ],
      },
      { text: 'Sorry.' },
    ]);
    const { events, end, conversation } = await run(model);
    assert.equal(end.stopReason, 'completed');
    const shown = events.flatMap((event) => (event.type === 'tool-error' ? [event.error] : []));
    assert.equal(shown.length, 3);
    // The user reads a short reason, not the SDK's class names and schema dump.
    assert.ok(shown.every((line) => !line.includes('AI_') && !line.includes('\n')), shown.join(' | '));
    assert.match(shown[1]!, /invalid arguments for lookup: key: Invalid input: expected string, received number/);
    assert.deepEqual(findUnansweredToolCalls(conversation.messages), []);
    const tool = model.doStreamCalls[1]!.prompt.find((message) => message.role === 'tool');
    assert.ok(tool && Array.isArray(tool.content));
    assert.deepEqual(
      tool.content.map((part) => (part as { output: { type: string } }).output.type),
      ['error-text', 'error-text', 'error-text'],
    );
  });

  test('a model that never stops calling makes exactly maxSteps requests', async () => {
    let n = 0;
    const model = scriptedModel(() => ({ calls: [{ name: 'lookup', input: { key: `k${n++}` } }] }));
    const { end, conversation } = await run(model, { limits: { maxSteps: 4, tokenBudget: 1e9, maxIdenticalCalls: 3 } });
    assert.equal(end.stopReason, 'max-steps');
    assert.equal(model.doStreamCalls.length, 4);
    assert.match(end.message ?? '', /4 steps/);
    assert.deepEqual(findUnansweredToolCalls(conversation.messages), []);
  });

  test('the third identical call is not run and stops the turn', async () => {
    const model = scriptedModel(() => ({ calls: [{ name: 'lookup', input: { key: 'same' } }] }));
    const { end, log, conversation } = await run(model, { limits: { maxSteps: 10, tokenBudget: 1e9, maxIdenticalCalls: 3 } });
    assert.equal(end.stopReason, 'repeated-call');
    assert.deepEqual(log, ['lookup:same', 'lookup:same']);
    assert.equal(model.doStreamCalls.length, 3);
    assert.match(end.message ?? '', /lookup \{"key":"same"\} 3 times/);
    assert.deepEqual(findUnansweredToolCalls(conversation.messages), []);
  });

  test('the token budget stops the turn after the step that passed it', async () => {
    const model = scriptedModel(() => ({ calls: [{ name: 'lookup', input: { key: String(Math.random()) } }] }));
    const { end } = await run(model, { limits: { maxSteps: 10, tokenBudget: 250, maxIdenticalCalls: 3 } });
    assert.equal(end.stopReason, 'token-budget');
    assert.equal(model.doStreamCalls.length, 3);
  });

  test('an API error ends the turn with one line; the user message stays, no half step', async () => {
    const error = new APICallError({
      message: 'Incorrect API key provided.',
      url: 'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions',
      requestBodyValues: {},
      statusCode: 401,
      responseBody: '{"error":{"message":"Incorrect API key provided."}}',
      isRetryable: false,
    });
    const { end, conversation } = await run(scriptedModel([{ error }]));
    assert.equal(end.stopReason, 'error');
    assert.equal(end.message, 'DashScope rejected the API key (401) (Incorrect API key provided.). Check DASHSCOPE_API_KEY in your environment or .env.');
    assert.deepEqual(roles(conversation.messages), ['user']);
  });

  test('a stream cut mid-answer is an error; only whole steps stay in the history', async () => {
    const model = scriptedModel([{ calls: [{ name: 'lookup', input: { key: 'a' } }] }, { cutAfter: 'The val' }]);
    const { end, conversation } = await run(model);
    assert.equal(end.stopReason, 'error');
    assert.match(end.message ?? '', /cut off/);
    assert.deepEqual(roles(conversation.messages), ['user', 'assistant', 'tool']);
  });

  test('a hanging model is cut off by the step timeout', async () => {
    const { end } = await run(scriptedModel([{ hang: true }]), { stepTimeoutMs: 50 });
    assert.equal(end.stopReason, 'timeout');
    assert.match(end.message ?? '', /--timeout/);
  });

  test('the user interrupt ends the turn as aborted with a valid history', async () => {
    const controller = new AbortController();
    const model = scriptedModel([{ calls: [{ name: 'lookup', input: { key: 'a' } }] }, { hang: true }]);
    const conversation = new Conversation();
    const turn = agentLoop(turnOptions(model, { conversation, stepTimeoutMs: 60_000, toolTimeoutMs: 60_000, abortSignal: controller.signal }));
    let end: AgentEvent | undefined;
    for await (const event of turn) {
      if (event.type === 'step-start' && event.step === 2) controller.abort();
      end = event;
    }
    assert.equal(end?.type === 'turn-end' && end.stopReason, 'aborted');
    assert.deepEqual(roles(conversation.messages), ['user', 'assistant', 'tool']);
  });

  test('a call the user stops while being asked is answered as interrupted through the listener, so the session saves it', async () => {
    const controller = new AbortController();
    const saved: ModelMessage[] = [];
    const conversation = new Conversation([], (message) => saved.push(message));
    const asking: ApprovalPolicy = {
      decide: () => 'ask',
      ask: () => {
        controller.abort();
        return new Promise(() => {});
      },
    };
    const model = scriptedModel([{ calls: [{ id: 'call_w', name: 'write_file', input: { path: 'a.txt', content: 'x' } }] }]);
    const turn = agentLoop(turnOptions(model, { conversation, approval: asking, abortSignal: controller.signal }));
    for await (const event of turn) void event;
    assert.deepEqual(roles(saved), ['user', 'assistant', 'tool']);
    assert.deepEqual(findUnansweredToolCalls(saved), [], 'what was saved answers every call');
    assert.deepEqual(saved, [...conversation.messages], 'the saved history is the one in memory');
    assert.match(JSON.stringify(saved.at(-1)), /Interrupted: this tool call did not finish/);
  });

  test('a tool error says whether the interrupt or the tool timeout ended the call, or the tool failed by itself', async () => {
    const waitsForItsSignal = tool({
      description: 'waits',
      inputSchema: z.object({}),
      execute: (_input, { abortSignal }) =>
        new Promise<string>((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(new Error('stopped')), { once: true })),
    });
    const fails = tool({
      description: 'fails',
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error('no such thing');
      },
    });
    const tools = { wait: waitsForItsSignal, fail: fails };
    const errorsOf = (events: AgentEvent[]) => events.flatMap((event) => (event.type === 'tool-error' ? [[event.toolName, event.stopped] as const] : []));

    const timedOut = await run(scriptedModel([{ calls: [{ name: 'wait', input: {} }, { name: 'fail', input: {} }] }, { text: 'ok' }]), { tools, toolTimeoutMs: 50 });
    assert.deepEqual(errorsOf(timedOut.events), [['wait', 'timed-out'], ['fail', undefined]]);

    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const turn = agentLoop(turnOptions(scriptedModel([{ calls: [{ name: 'wait', input: {} }] }]), { tools, abortSignal: controller.signal, toolTimeoutMs: 60_000 }));
    for await (const event of turn) {
      events.push(event);
      if (event.type === 'tool-call') setTimeout(() => controller.abort(), 20);
    }
    assert.deepEqual(errorsOf(events), [['wait', 'interrupted']]);
  });

  test('a denied call reaches the model as a denial and the turn goes on', async () => {
    const model = scriptedModel([{ calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'x' } }] }, { text: 'It was denied.' }]);
    const { events, end, log } = await run(model);
    assert.equal(end.stopReason, 'completed');
    assert.deepEqual(log, []);
    const denied = events.find((event) => event.type === 'tool-denied');
    assert.ok(denied && denied.type === 'tool-denied');
    assert.equal(denied.reason, 'needs --yes');
    const tool = model.doStreamCalls[1]!.prompt.find((message) => message.role === 'tool');
    assert.ok(tool && Array.isArray(tool.content));
    assert.equal((tool.content[0] as { output: { type: string } }).output.type, 'execution-denied');
  });

  test('an approved call that ran keeps its real result when the next model step fails', async () => {
    const approval: ApprovalPolicy = { decide: () => 'ask', ask: async () => ({ approved: true }) };
    const failure = new APICallError({
      message: 'An internal error has occured.',
      url: 'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions',
      requestBodyValues: {},
      statusCode: 500,
      isRetryable: true,
    });
    const model = scriptedModel([{ calls: [{ id: 'call_write', name: 'write_file', input: { path: 'a.txt', content: 'x' } }] }, { error: failure }]);
    const { end, log, conversation } = await run(model, { approval });

    assert.equal(end.stopReason, 'error');
    assert.deepEqual(log, ['write:a.txt'], 'the approved write ran');
    const results = conversation.messages.flatMap((message) =>
      message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result' && part.toolCallId === 'call_write') : [],
    );
    assert.equal(results.length, 1, `one result for the call: ${JSON.stringify(conversation.messages)}`);
    const output = JSON.stringify(results[0]);
    assert.ok(output.includes('Wrote a.txt'), `the history keeps what the write returned: ${output}`);
    assert.ok(!output.includes(INTERRUPTED_TOOL_RESULT_TEXT), 'the history says the write may not have run');
    assert.deepEqual(findUnansweredToolCalls(conversation.messages), []);
  });

  for (const answer of [true, false]) {
    test(`asks the user before a call that needs approval (${answer ? 'yes' : 'no'})`, async () => {
      const asked: string[] = [];
      const approval: ApprovalPolicy = {
        decide: (toolName) => (toolName === 'write_file' ? 'ask' : 'not-needed'),
        ask: async (request) => {
          asked.push(request.toolName);
          return { approved: answer, reason: answer ? undefined : 'User said no.' };
        },
      };
      const model = scriptedModel([{ calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'x' } }] }, { text: 'Done.' }]);
      const { end, log, conversation } = await run(model, { approval });
      assert.equal(end.stopReason, 'completed');
      assert.deepEqual(asked, ['write_file']);
      assert.deepEqual(log, answer ? ['write:a.txt'] : []);
      assert.equal(model.doStreamCalls.length, 2);
      assert.deepEqual(findUnansweredToolCalls(conversation.messages), []);
    });
  }
});

describe('agentLoop with the context fitter, turn after turn', () => {
  /** What request `n` carried, one short line per message after the system prompt. */
  const sentIn = (model: MockLanguageModelV4, n: number): string[] =>
    model.doStreamCalls[n]!.prompt.slice(1).map((message) => {
      if (typeof message.content === 'string') return `${message.role}: ${message.content}`;
      const parts = message.content.map((part) => {
        if (part.type === 'text') return part.text;
        if (part.type === 'tool-call') return `call ${part.toolCallId}`;
        if (part.type === 'tool-result') return `result ${part.toolCallId}: ${JSON.stringify((part.output as { value?: unknown }).value)}`;
        return part.type;
      });
      return `${message.role}: ${parts.join(' | ')}`;
    });

  test('each step, after an interrupt and after /compact, the model is sent the history as it now is', { timeout: 30_000 }, async () => {
    const model = scriptedModel([
      { calls: [{ id: 'a', name: 'lookup', input: { key: 'a' } }] },
      { calls: [{ id: 'b', name: 'lookup', input: { key: 'b' } }] },
      { text: 'A and B.' },
      { calls: [{ id: 'w', name: 'write_file', input: { path: 'x.txt', content: 'x' } }] },
      { text: 'Going on.' },
      { text: 'From the summary.' },
    ]);
    const tools = makeTools([]);
    const fitter = new ContextFitter(1_000_000, 'You are a test.', tools);
    const conversation = new Conversation();
    const turn = async (userMessage: string, approval: ApprovalPolicy, abortSignal = new AbortController().signal) => {
      const events: AgentEvent[] = [];
      const options = turnOptions(model, {
        tools,
        conversation,
        userMessage,
        limits: { maxSteps: 10, tokenBudget: 1e9, maxIdenticalCalls: 3 },
        abortSignal,
        approval,
        fitMessages: (messages) => fitter.fit(messages),
        onStepUsage: (sent, usage) => fitter.observe(sent, usage),
      });
      for await (const event of agentLoop(options)) events.push(event);
      return events.at(-1) as Extract<AgentEvent, { type: 'turn-end' }>;
    };

    assert.equal((await turn('look up a and b', noApproval)).stopReason, 'completed');
    assert.deepEqual(sentIn(model, 2), [
      'user: look up a and b',
      'assistant: call a',
      'tool: result a: "value of a"',
      'assistant: call b',
      'tool: result b: "value of b"',
    ]);

    // Interrupted while the user is asked: the call is answered as interrupted before the next turn is sent.
    const controller = new AbortController();
    const asking: ApprovalPolicy = {
      decide: () => 'ask',
      ask: () => {
        controller.abort();
        return new Promise(() => {});
      },
    };
    assert.equal((await turn('write x', asking, controller.signal)).stopReason, 'aborted');
    assert.equal((await turn('go on', noApproval)).stopReason, 'completed');
    assert.deepEqual(sentIn(model, 4).slice(5), [
      'assistant: A and B.',
      'user: write x',
      'assistant: call w',
      `tool: result w: ${JSON.stringify(INTERRUPTED_TOOL_RESULT_TEXT)}`,
      'user: go on',
    ]);

    // /compact replaces the history with a summary pair, as the runtime does.
    conversation.replace([
      { role: 'user', content: 'Summary of the earlier conversation:\nlooked up a and b; a write was interrupted.' },
      { role: 'assistant', content: 'Understood.' },
    ]);
    assert.equal((await turn('and now?', noApproval)).stopReason, 'completed');
    assert.deepEqual(sentIn(model, 5), [
      'user: Summary of the earlier conversation:\nlooked up a and b; a write was interrupted.',
      'assistant: Understood.',
      'user: and now?',
    ]);
  });
});
