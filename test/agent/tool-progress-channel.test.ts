import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentEvent, StopReason } from '../../src/agent/loop/events.ts';
import { ToolProgressChannel } from '../../src/agent/loop/tool-progress-channel.ts';

const typeOf = (result: IteratorResult<AgentEvent, StopReason>): string | undefined => (result.done ? undefined : result.value.type);

describe('ToolProgressChannel', { timeout: 5_000 }, () => {
  test('progress reported while the turn waits on a tool is yielded at once, between the turn\'s own events', async () => {
    const channel = new ToolProgressChannel();
    let finishTool: () => void = () => {};
    const toolDone = new Promise<void>((resolve) => (finishTool = resolve));
    async function* turn(): AsyncGenerator<AgentEvent, StopReason> {
      yield { type: 'tool-call', toolCallId: 'c1', toolName: 'run_command', input: {} };
      await toolDone;
      yield { type: 'tool-result', toolCallId: 'c1', toolName: 'run_command', output: 'exit code 0' };
      return 'completed';
    }
    const merged = channel.merge(turn());
    assert.equal(typeOf(await merged.next()), 'tool-call');
    const waiting = merged.next();
    channel.report('c1', 'run_command', 'line 1');
    assert.deepEqual((await waiting).value, { type: 'tool-progress', toolCallId: 'c1', toolName: 'run_command', text: 'line 1' });
    const afterProgress = merged.next();
    finishTool();
    assert.equal(typeOf(await afterProgress), 'tool-result');
    assert.deepEqual(await merged.next(), { done: true, value: 'completed' });
  });

  test('reports made outside a turn are dropped', async () => {
    const channel = new ToolProgressChannel();
    channel.report('c0', 'run_command', 'stale');
    async function* turn(): AsyncGenerator<AgentEvent, StopReason> {
      yield { type: 'notice', message: 'hi' };
      return 'completed';
    }
    const events: AgentEvent[] = [];
    for await (const event of channel.merge(turn())) events.push(event);
    assert.deepEqual(events, [{ type: 'notice', message: 'hi' }]);
  });

  test('a retry reported while the loop waits on the model request is yielded at once', async () => {
    const channel = new ToolProgressChannel();
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    async function* turn(): AsyncGenerator<AgentEvent, StopReason> {
      yield { type: 'step-start', step: 1 };
      await answered;
      yield { type: 'text-delta', text: 'hi' };
      return 'completed';
    }
    const merged = channel.merge(turn());
    assert.equal(typeOf(await merged.next()), 'step-start');
    const waiting = merged.next();
    channel.retry({ attempt: 1, maxRetries: 3, delayMs: 2_000, reason: 'rate-limited', status: 429 });
    assert.deepEqual((await waiting).value, { type: 'retry', attempt: 1, maxRetries: 3, delayMs: 2_000, reason: 'rate-limited', status: 429 });
    const next = merged.next();
    answer();
    assert.equal(typeOf(await next), 'text-delta');
    assert.deepEqual(await merged.next(), { done: true, value: 'completed' });
  });
});
