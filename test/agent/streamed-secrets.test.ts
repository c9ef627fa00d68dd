import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentEvent } from '../../src/agent/loop/events.ts';
import { redactTurn } from '../../src/agent/loop/redact-events.ts';
import { withDeadline } from '../helpers/deadline.ts';

const KEY = 'sk-streamed-secret-4f1e9a';

async function* turn(events: AgentEvent[]): AsyncGenerator<AgentEvent, string> {
  yield* events;
  return 'done';
}

async function shown(events: AgentEvent[], secrets = [KEY]): Promise<{ events: AgentEvent[]; result: string }> {
  const out: AgentEvent[] = [];
  const stream = redactTurn(turn(events), secrets);
  while (true) {
    const next = await stream.next();
    if (next.done) return { events: out, result: next.value };
    out.push(next.value);
  }
}

const deltas = (text: string, size: number, type: 'text-delta' | 'reasoning-delta' = 'text-delta'): AgentEvent[] =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, index) => ({ type, text: text.slice(index * size, (index + 1) * size) }));
const textOf = (events: AgentEvent[], type: 'text-delta' | 'reasoning-delta' = 'text-delta') => events.map((event) => (event.type === type && 'text' in event ? event.text : '')).join('');

describe('a key the model quotes, streamed in pieces', () => {
  test('is scrubbed wherever the pieces cut it, and the rest of the text is kept', async () => {
    const answer = `Your key is ${KEY}; keep it safe.`;
    for (let size = 1; size <= answer.length; size++) {
      const { events, result } = await shown(deltas(answer, size));
      assert.equal(textOf(events), 'Your key is [redacted]; keep it safe.', `pieces of ${size}`);
      assert.ok(events.every((event) => event.type !== 'text-delta' || !event.text.includes('streamed')), `no piece carries part of the key (pieces of ${size})`);
      assert.equal(result, 'done');
    }
  });

  test('in the reasoning and in a subagent\'s answer too; other events keep their place after what came before them', async () => {
    const sub = (event: AgentEvent): AgentEvent => ({ type: 'subagent', agentId: 'general-1', agent: 'general', description: 'd', toolCallId: 't', event });
    const { events } = await shown([
      ...deltas(`thinking of ${KEY}`, 4, 'reasoning-delta'),
      { type: 'tool-call', toolCallId: 'c', toolName: 'calculate', input: { expression: '1+1' } },
      ...deltas(`the subagent says ${KEY}`, 3).map(sub),
      ...deltas('done', 2),
    ]);
    assert.equal(textOf(events, 'reasoning-delta'), 'thinking of [redacted]');
    const toolCall = events.findIndex((event) => event.type === 'tool-call');
    assert.equal(textOf(events.slice(0, toolCall), 'reasoning-delta'), 'thinking of [redacted]', 'the reasoning is whole before the call');
    const subagent = events.filter((event) => event.type === 'subagent').map((event) => (event.type === 'subagent' && event.event.type === 'text-delta' ? event.event.text : '')).join('');
    assert.equal(subagent, 'the subagent says [redacted]');
    assert.equal(textOf(events), 'done');
  });

  test('text streams piece for piece, Chinese as English; only what could begin a key waits for the next piece', async () => {
    const pieces: AgentEvent[] = ['北京', '今天', '晴朗，', 'sunny ', 'and s', 'till warm, sk-s', 'treamlined'].map((text) => ({ type: 'text-delta', text }));
    const { events } = await shown(pieces);
    assert.deepEqual(events.map((event) => (event.type === 'text-delta' ? event.text : '')), ['北京', '今天', '晴朗，', 'sunny ', 'and ', 'still warm, ', 'sk-streamlined']);
  });

  test('a stream that stalls after a last "s" shows it within a moment; a key that then goes on is scrubbed all the same', async () => {
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    async function* stalling(): AsyncGenerator<AgentEvent, string> {
      yield { type: 'text-delta', text: 'Your key is s' };
      await resumed;
      yield { type: 'text-delta', text: 'k-streamed-secret-4f1e9a, keep it.' };
      return 'done';
    }
    const stream = redactTurn(stalling(), [KEY]);
    const first = await stream.next();
    assert.deepEqual(first.value, { type: 'text-delta', text: 'Your key is ' });
    const second = await withDeadline(stream.next(), 5_000, 'the held "s" to show while the stream stalls');
    assert.deepEqual(second.value, { type: 'text-delta', text: 's' });
    resume();
    const rest: string[] = [];
    for (let next = await stream.next(); !next.done; next = await stream.next()) if (next.value.type === 'text-delta') rest.push(next.value.text);
    assert.equal(rest.join(''), '[redacted], keep it.');
  });
});
