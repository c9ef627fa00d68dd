import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { registerTelemetry, tool } from 'ai';
import { z } from 'zod';
import { agentLoop } from '../../src/agent/agent-loop.ts';
import { Conversation } from '../../src/agent/conversation.ts';
import { scriptedModel } from '../helpers/scripted-model.ts';

const sourceRoot = fileURLToPath(new URL('../../src', import.meta.url));

test('a turn of three steps makes exactly three streamText calls, three model steps and three requests', async () => {
  const operations: string[] = [];
  let stepsStarted = 0;
  registerTelemetry({
    onStart: (event: { operationId?: string }) => void operations.push(String(event.operationId)),
    onStepStart: () => void stepsStarted++,
  });
  const model = scriptedModel([
    { calls: [{ name: 'lookup', input: { key: 'a' } }] },
    { calls: [{ name: 'lookup', input: { key: 'b' } }] },
    { text: 'Both looked up.' },
  ]);
  const ran: string[] = [];
  const tools = {
    lookup: tool({
      description: 'look something up',
      inputSchema: z.object({ key: z.string() }),
      execute: async ({ key }) => {
        ran.push(key);
        return `value of ${key}`;
      },
    }),
  };
  let stopReason: string | undefined;
  for await (const event of agentLoop({
    model,
    tools,
    instructions: 'You are a test.',
    conversation: new Conversation(),
    userMessage: 'look up a and b',
    limits: { maxSteps: 10, tokenBudget: 1e9, maxIdenticalCalls: 3 },
    stepTimeoutMs: 5_000,
    toolTimeoutMs: 5_000,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    approval: { decide: () => 'not-needed', ask: async () => ({ approved: true }) },
    provider: { label: 'the mock model', model: 'mock' },
  })) {
    if (event.type === 'turn-end') stopReason = event.stopReason;
  }
  assert.equal(stopReason, 'completed');
  assert.deepEqual(ran, ['a', 'b']);
  assert.equal(model.doStreamCalls.length, 3, 'three requests reached the model');
  assert.deepEqual(operations.filter((id) => id.includes('streamText')), ['ai.streamText', 'ai.streamText', 'ai.streamText'], `operations: ${operations.join(', ')}`);
  assert.equal(stepsStarted, 3, 'each streamText ran exactly one step');
});

test("src/ lets the SDK run no loop of its own: no stopWhen, prepareStep or onStepEnd", () => {
  const files = readdirSync(sourceRoot, { recursive: true }).map(String).filter((file) => file.endsWith('.ts'));
  assert.ok(files.length > 50, `found the sources (${files.length} files)`);
  const offenders = files.filter((file) => /\b(stopWhen|prepareStep|onStepEnd)\b/.test(readFileSync(join(sourceRoot, file), 'utf8')));
  assert.deepEqual(offenders, []);
});
