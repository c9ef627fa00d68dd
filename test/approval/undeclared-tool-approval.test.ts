import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { agentLoop } from '../../src/agent/loop/agent-loop.ts';
import { Conversation } from '../../src/agent/context/conversation.ts';
import type { AgentEvent } from '../../src/agent/loop/events.ts';
import type { ApprovalPolicy } from '../../src/agent/loop/turn-options.ts';
import { Approval } from '../../src/approval/approval-policy.ts';
import type { ApprovalQuestion } from '../../src/approval/approval-types.ts';
import { builtInSpec } from '../../src/tools/registry/built-in-specs.ts';
import type { ToolSpec } from '../../src/tools/tool-spec.ts';
import { printApproval } from '../helpers/approval-policies.ts';
import { scriptedModel } from '../helpers/scripted-model.ts';

/** A tool added to the set without a spec: nothing says whether it changes anything. */
function newTool(ran: unknown[]): ToolSet {
  return {
    purge_cache: tool({
      description: 'Purges the cache.',
      inputSchema: z.object({ scope: z.string() }),
      execute: async (input) => {
        ran.push(input);
        return 'purged';
      },
    }),
  };
}

/** One turn in which the model calls the new tool once, then answers. */
async function turnWith(approval: ApprovalPolicy, ran: unknown[]) {
  const model = scriptedModel([{ calls: [{ name: 'purge_cache', input: { scope: 'all' }, id: 'call-purge' }] }, { text: 'done' }]);
  const events: AgentEvent[] = [];
  for await (const event of agentLoop({
    model,
    tools: newTool(ran),
    instructions: 'You are a test.',
    conversation: new Conversation(),
    userMessage: 'purge it',
    limits: { maxSteps: 4, tokenBudget: 1_000_000, maxIdenticalCalls: 3 },
    stepTimeoutMs: 5_000,
    toolTimeoutMs: 5_000,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    approval,
    provider: { label: 'DashScope', model: 'qwen-plus', keyVariable: 'DASHSCOPE_API_KEY' },
  })) {
    events.push(event);
  }
  const sentBack = JSON.stringify(model.doStreamCalls[1]?.prompt.filter((message) => message.role === 'tool'));
  return { events, sentBack };
}

/** A front end that answers every question with `approved` and keeps what it was asked. */
function askingWith(approved: boolean, specs = builtInSpec) {
  const questions: ApprovalQuestion[] = [];
  const approval = new Approval({
    specs,
    yes: false,
    asker: {
      ask: async (question) => {
        questions.push(question);
        return approved ? { approved: true } : { approved: false, reason: 'The user said no.' };
      },
    },
  });
  return { approval, questions };
}

describe('a tool that declares no kind is asked about, not run', { timeout: 10_000 }, () => {
  test('at a terminal the user is asked, and a no keeps it from running', async () => {
    const ran: unknown[] = [];
    const { approval, questions } = askingWith(false);
    const { events, sentBack } = await turnWith(approval, ran);
    assert.deepEqual(questions.map((question) => [question.request.toolName, question.scope.key]), [['purge_cache', 'tool:purge_cache']]);
    assert.deepEqual(ran, [], 'the tool did not run');
    assert.ok(events.some((event) => event.type === 'tool-denied' && event.toolName === 'purge_cache'));
    assert.match(sentBack, /The user said no/);
  });

  test('a yes runs it', async () => {
    const ran: unknown[] = [];
    const { approval } = askingWith(true);
    await turnWith(approval, ran);
    assert.deepEqual(ran, [{ scope: 'all' }]);
  });

  test('where nobody can be asked (print mode without --yes) it is refused, and the model is told how to allow it', async () => {
    const ran: unknown[] = [];
    const { sentBack } = await turnWith(printApproval(false), ran);
    assert.deepEqual(ran, []);
    assert.match(sentBack, /purge_cache needs the user's approval[^"]*--yes/);
  });

  test('plan mode refuses it even with --yes', async () => {
    const ran: unknown[] = [];
    const { sentBack } = await turnWith(printApproval(true, { modes: { mode: () => 'plan', workspaceRoot: process.cwd() } }), ran);
    assert.deepEqual(ran, []);
    assert.match(sentBack, /plan mode/);
  });

  test('a changing kind without a scope is asked too; a declared read-only kind runs unasked', async () => {
    const declared = (spec: Omit<ToolSpec, 'name'>) => (name: string) => (name === 'purge_cache' ? { name, ...spec } : builtInSpec(name));
    const writing = askingWith(false, declared({ kind: 'other' }));
    const ranWriting: unknown[] = [];
    await turnWith(writing.approval, ranWriting);
    assert.equal(writing.questions.length, 1);
    assert.deepEqual(ranWriting, []);
    const reading = askingWith(false, declared({ kind: 'read' }));
    const ranReading: unknown[] = [];
    await turnWith(reading.approval, ranReading);
    assert.deepEqual(reading.questions, []);
    assert.deepEqual(ranReading, [{ scope: 'all' }]);
  });
});
