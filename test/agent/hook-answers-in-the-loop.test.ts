import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tool } from 'ai';
import { z } from 'zod';
import { agentLoop } from '../../src/agent/loop/agent-loop.ts';
import { type LoopHooks, type TurnOptions } from '../../src/agent/loop/turn-options.ts';
import { Conversation } from '../../src/agent/context/conversation.ts';
import type { AgentEvent } from '../../src/agent/loop/events.ts';
import { Approval } from '../../src/approval/approval-policy.ts';
import type { ApprovalAsker } from '../../src/approval/approval-types.ts';
import { scriptedModel } from '../helpers/scripted-model.ts';

// What a hook says is one more input to the approval core: it can spare a question, never answer
// one the user answered, and never move a call past plan mode.

const quietHooks = (overrides: Partial<LoopHooks>): LoopHooks => ({
  beforeTool: async () => ({ notes: [] }),
  permissionRequest: async () => ({ notes: [] }),
  notify: () => {},
  afterTool: async () => ({ notes: [] }),
  beforeStop: async () => ({ notes: [] }),
  ...overrides,
});

function turn(hooks: LoopHooks, asker: ApprovalAsker, mode: 'ask' | 'plan' = 'ask') {
  const ran: string[] = [];
  const write_file = tool({
    description: 'write',
    inputSchema: z.object({ path: z.string(), content: z.string() }),
    execute: async ({ path }) => {
      ran.push(path);
      return `Wrote ${path}`;
    },
  });
  const options: TurnOptions = {
    model: scriptedModel([{ calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'x' }, id: 'call_w' }] }, { text: 'Done.' }]),
    tools: { write_file },
    instructions: 'You are a test.',
    conversation: new Conversation(),
    userMessage: 'write a',
    limits: { maxSteps: 5, tokenBudget: 1_000_000, maxIdenticalCalls: 3 },
    stepTimeoutMs: 5_000,
    toolTimeoutMs: 5_000,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    approval: new Approval({ yes: false, asker, modes: { mode: () => mode, workspaceRoot: process.cwd() } }),
    hooks,
    provider: { label: 'DashScope', model: 'qwen-plus', keyVariable: 'DASHSCOPE_API_KEY' },
  };
  return { options, ran };
}

async function events(options: TurnOptions): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of agentLoop(options)) seen.push(event);
  return seen;
}

const userSaysNo: ApprovalAsker = { ask: async () => ({ approved: false, reason: 'The user said no.' }) };
const userSaysYes: ApprovalAsker = { ask: async () => ({ approved: true }) };

describe('hook answers in the loop', () => {
  test("the user's no is final: a PreToolUse ask asks, and no later hook runs the call", async () => {
    let asked = 0;
    const asker: ApprovalAsker = { ask: async (question) => (asked++, userSaysNo.ask(question)) };
    const { options, ran } = turn(
      quietHooks({
        beforeTool: async () => ({ notes: [], decision: 'ask' }),
        afterTool: async () => ({ notes: [], context: 'ran after all?' }),
        permissionRequest: async () => ({ notes: [] }),
      }),
      asker,
    );
    const seen = await events(options);
    assert.equal(asked, 1, 'the user was asked');
    assert.deepEqual(ran, [], 'nothing ran');
    assert.ok(seen.some((event) => event.type === 'tool-denied' && event.reason === 'The user said no.'));
  });

  test('a PreToolUse allow spares the question outside plan mode', async () => {
    let asked = 0;
    const asker: ApprovalAsker = { ask: async (question) => (asked++, userSaysYes.ask(question)) };
    const { options, ran } = turn(quietHooks({ beforeTool: async () => ({ notes: [], decision: 'allow' }) }), asker);
    await events(options);
    assert.equal(asked, 0);
    assert.deepEqual(ran, ['a.txt']);
  });

  test('in plan mode neither a PreToolUse allow nor a PermissionRequest allow runs a write', async () => {
    const { options, ran } = turn(
      quietHooks({ beforeTool: async () => ({ notes: [], decision: 'allow' }), permissionRequest: async () => ({ notes: [], decision: 'allow' }) }),
      userSaysYes,
      'plan',
    );
    const seen = await events(options);
    assert.deepEqual(ran, []);
    assert.ok(seen.some((event) => event.type === 'tool-denied' && /plan mode/i.test(event.reason ?? '')));
  });

  test('a rewritten input is judged again: a PermissionRequest deny still refuses it', async () => {
    const { options, ran } = turn(
      quietHooks({
        beforeTool: async () => ({ notes: [], updatedInput: { path: 'b.txt', content: 'y' } }),
        permissionRequest: async (call) => ({ notes: [], decision: (call.input as { path: string }).path === 'b.txt' ? 'deny' : 'allow', reason: 'not b' }),
      }),
      userSaysYes,
    );
    await events(options);
    assert.deepEqual(ran, []);
  });
});
