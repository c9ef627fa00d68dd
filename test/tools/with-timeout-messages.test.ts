import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tool } from 'ai';
import { z } from 'zod';
import { Conversation } from '../../src/agent/context/conversation.ts';
import type { AgentEvent } from '../../src/agent/loop/events.ts';
import { agentLoop } from '../../src/agent/loop/agent-loop.ts';
import { withTimeoutMessages } from '../../src/tools/with-timeout-messages.ts';
import { scriptedModel } from '../helpers/scripted-model.ts';

test('a tool that runs too long is cut off, the model reads why, and the turn goes on', async () => {
  const tools = withTimeoutMessages(
    {
      // Ignores its abort signal on purpose: the cut-off must not depend on the tool's good manners.
      stuck: tool({ description: 'never finishes', inputSchema: z.object({}), execute: () => new Promise<string>(() => {}) }),
    },
    50,
  );
  const model = scriptedModel([{ calls: [{ name: 'stuck', input: {}, id: 'c1' }] }, { text: 'It timed out.' }]);
  const events: AgentEvent[] = [];
  for await (const event of agentLoop({
    model,
    tools,
    instructions: 'test',
    conversation: new Conversation(),
    userMessage: 'go',
    limits: { maxSteps: 5, tokenBudget: 1e9, maxIdenticalCalls: 3 },
    // The step's own limit far above anything a loaded machine needs, so only the tool's can fire.
    stepTimeoutMs: 120_000,
    toolTimeoutMs: 50,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    approval: { decide: () => 'not-needed', ask: async () => ({ approved: false }) },
    provider: { label: 'DashScope', model: 'x' },
  })) {
    events.push(event);
  }
  const error = events.find((event) => event.type === 'tool-error');
  assert.ok(error && error.type === 'tool-error');
  assert.match(error.error, /stuck did not finish within 50 ms and was stopped/);
  assert.equal(events.at(-1)?.type === 'turn-end' && events.at(-1)?.type, 'turn-end');
  const end = events.at(-1) as Extract<AgentEvent, { type: 'turn-end' }>;
  assert.equal(end.stopReason, 'completed');
  const toolMessage = model.doStreamCalls[1]!.prompt.find((message) => message.role === 'tool');
  assert.ok(toolMessage && Array.isArray(toolMessage.content));
  assert.match(JSON.stringify(toolMessage.content[0]), /did not finish within/);
});
