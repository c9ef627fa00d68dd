import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonSchema, tool, type ModelMessage } from 'ai';
import { ContextFitter, EVICT_TO_SHARE, type FittedMessages } from '../../src/agent/context/context-fitter.ts';
import { fitToWindow } from '../../src/agent/context/context-window.ts';
import { repairHistory } from '../../src/agent/context/history-repair.ts';
import { COMPACTION_SUMMARY_PREFIX } from '../../src/shared/compaction-summary.ts';
import { Conversation } from '../../src/agent/context/conversation.ts';
import { estimateMessageTokens, TokenCalibration } from '../../src/shared/text/token-estimate.ts';

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const assistant = (text: string): ModelMessage => ({ role: 'assistant', content: text });
const call = (id: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: `${id}.txt` } }] });
const result = (id: string, text: string): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'text', value: text } }],
});

/** Turn `index` as the agent loop appends it: the question, then whole steps (a call and its result, or the answer). */
function turn(index: number): ModelMessage[][] {
  const steps: ModelMessage[][] = [[user(`question ${index}: ${'读一下这个文件 '.repeat(index % 5)}`)]];
  for (let step = 0; step < index % 3; step++) {
    const id = `call-${index}-${step}`;
    // Every seventh result is long enough to be shortened in the small window.
    steps.push([call(id), result(id, (index % 7 === 0 ? 'line of a long file\n'.repeat(400) : 'short result ').repeat(1 + (index % 4)))]);
  }
  steps.push([assistant(`answer ${index} `.repeat(1 + (index % 6)))]);
  return steps;
}

/** Its reserve, read back from `usedShare` of an empty history (instructions, tools and room for the answer). */
const reserveOf = (fitter: ContextFitter) => Math.round(fitter.usedShare([]) * fitter.windowTokens);

/** The same fit computed from nothing: a copy of the history is an array the fitter has never seen. */
const fromScratch = (fitter: ContextFitter, history: readonly ModelMessage[]) => fitter.fit([...history]);

const assertSameFit = (actual: FittedMessages, expected: FittedMessages, context: string) => {
  assert.deepEqual(actual, expected, context);
  actual.messages.forEach((message, index) => assert.equal(message, expected.messages[index], `${context}: message ${index} is the same object`));
};

describe('ContextFitter on a history that grows', { timeout: 60_000 }, () => {
  // 24k: results over its 6k cap are shortened while the history still fits whole; 1.5k and 6k leave turns out.
  for (const windowTokens of [1_000_000, 24_000, 6_000, 1_500]) {
    // Turn-by-turn eviction (SYLVAN_CACHE=off) is fitToWindow's; the default chunked eviction is tested below.
    test(`with turn-by-turn eviction, sends what fitToWindow would, step after step, as the provider's counts move the calibration (${windowTokens.toLocaleString('en-US')}-token window)`, () => {
      const fitter = new ContextFitter(windowTokens, 'You are a test.', {}, { eviction: 'turns' });
      // The fitter's calibration, followed from outside: what it learns from the same reports.
      const calibration = new TokenCalibration({ minRatio: 1, maxRatio: 2 });
      const history: ModelMessage[] = [];
      let shortenedInWhole = 0;
      let dropped = 0;
      for (let index = 0; index < 60; index++) {
        for (const step of turn(index)) {
          history.push(...step);
          const fitted = fitter.fit(history);
          const reservedTokens = reserveOf(fitter);
          const expected = fitToWindow(history, { windowTokens, reservedTokens, estimate: (message) => calibration.apply(estimateMessageTokens(message)) });
          assert.deepEqual(fitted.messages, expected.messages, `turn ${index}, ${history.length} messages`);
          assert.equal(fitted.estimatedTokens, expected.estimatedTokens, `turn ${index}: estimate`);
          if (expected.droppedMessages === 0) shortenedInWhole += expected.shortenedResults;
          dropped += expected.droppedTurns;
          const raw = fitted.messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
          const inputTokens = Math.ceil((raw + reservedTokens) * (1.05 + (index % 5) / 10));
          fitter.observe(fitted.messages, { inputTokens, outputTokens: 10, cachedInputTokens: 0 });
          calibration.observe(raw + reservedTokens, inputTokens);
        }
      }
      assert.ok(calibration.ratio > 1, 'the calibration moved');
      if (windowTokens === 24_000) assert.ok(shortenedInWhole > 0, 'results were shortened in a history kept whole');
      if (windowTokens <= 6_000) assert.ok(dropped > 0, 'the small window left turns out');
    });
  }

  test('with turn-by-turn eviction, a fit after the provider reported usage counts as a fresh fit does, whole history or not', () => {
    for (const windowTokens of [1_000_000, 24_000, 6_000]) {
      const incremental = new ContextFitter(windowTokens, 'You are a test.', {}, { eviction: 'turns' });
      const fresh = new ContextFitter(windowTokens, 'You are a test.', {}, { eviction: 'turns' });
      const history: ModelMessage[] = [];
      for (let index = 0; index < 40; index++) {
        for (const step of turn(index)) {
          history.push(...step);
          const fitted = incremental.fit(history);
          assertSameFit(fitted, fromScratch(fresh, history), `${windowTokens}: turn ${index}`);
          // Providers report more than the estimate, and by changing ratios, so the calibration moves every step.
          const raw = fitted.messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
          const usage = { inputTokens: Math.ceil((raw + reserveOf(incremental)) * (1.1 + (index % 5) / 10)), outputTokens: 10, cachedInputTokens: 0 };
          incremental.observe(fitted.messages, usage);
          fresh.observe([...fitted.messages], usage);
          assert.equal(incremental.historyShare(history), fresh.historyShare([...history]), `${windowTokens}: turn ${index}: share`);
        }
      }
    }
  });

  test('after /compact, a repair or /clear, the replaced history is what is sent, not the one before', () => {
    const fitter = new ContextFitter(1_000_000, 'You are a test.', {});
    const conversation = new Conversation();
    for (let index = 0; index < 12; index++) for (const step of turn(index)) conversation.append(...step);
    assert.equal(fitter.fit(conversation.messages).messages.length, conversation.length);

    // /compact: a summary pair replaces everything, then the next turn goes on from it.
    const summary = [user(`${COMPACTION_SUMMARY_PREFIX}:\nthe user read twelve files.`), assistant('Understood.')];
    conversation.replace(summary);
    conversation.append(user('and now?'));
    assert.deepEqual(fitter.fit(conversation.messages).messages, [...summary, user('and now?')]);

    // An interrupted step: the repair answers the call, in a new array that starts with the same messages.
    conversation.append(call('cut'));
    assert.deepEqual(fitter.fit(conversation.messages).messages.at(-1), call('cut'));
    conversation.replace(repairHistory([...conversation.messages]));
    const repaired = fitter.fit(conversation.messages).messages;
    assert.equal(repaired.length, 5);
    assert.equal(repaired.at(-1)?.role, 'tool', 'the synthetic result of the interrupted call is sent');

    // A repair at rest: the denied approval's request and response give way to a denied result, so the
    // replaced history has the same length and last message, and different messages before them.
    conversation.replace([
      user('write it'),
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'w', toolName: 'write_file', input: { path: 'a.txt', content: 'a long enough text to count' } },
          { type: 'tool-approval-request', approvalId: 'approval-w', toolCallId: 'w' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'approval-w', approved: false, reason: 'The user said no to this write.' }] },
      user('then do not'),
      assistant('I will not.'),
    ]);
    const beforeRepair = fitter.fit(conversation.messages);
    conversation.replace(repairHistory([...conversation.messages]));
    assert.equal(conversation.messages.at(-1), beforeRepair.messages.at(-1));
    assertSameFit(fitter.fit(conversation.messages), fromScratch(new ContextFitter(1_000_000, 'You are a test.', {}), conversation.messages), 'after the repair');
    assert.equal(conversation.messages[2]?.role, 'tool');

    // /clear, and a history that is the same length as before but not the same messages.
    conversation.replace([]);
    conversation.append(user('first'), assistant('one'), user('second'), assistant('two'), user('third'));
    assert.deepEqual(fitter.fit(conversation.messages).messages, conversation.messages);
  });

  test('an array changed where its last message was is fitted again from the start', () => {
    const fitter = new ContextFitter(1_000_000, 'You are a test.', {});
    const history: ModelMessage[] = [user('one'), assistant('first answer')];
    fitter.fit(history);
    history[1] = assistant('an answer replaced in place, several tokens longer than the first');
    history.push(user('two'));
    assertSameFit(fitter.fit(history), fromScratch(new ContextFitter(1_000_000, 'You are a test.', {}), history), 'after the change');
  });
});

describe('ContextFitter: tools that fill the window (issue 22, failure 7)', () => {
  const mcpTools = (count: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, index) => [
        `many__tool_${index}`,
        tool({ description: `Tool number ${index}. ${'Does one small thing. '.repeat(14)}`, inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } } }) }),
      ]),
    );

  test('the warning names the tools and the server offering most of them, not the five-token message', () => {
    const fitter = new ContextFitter(32_000, 'You are a test.', mcpTools(2_000));
    const { notice } = fitter.fit([user('你好，在吗？')]);
    assert.match(String(notice), /^\(the definitions of the 2,000 tools take about [\d,]+ tokens, more than the 32k context window leaves for them; most are many__\* \(2,000 tools/);
  });

  test('a message too big by itself is still the one named', () => {
    const fitter = new ContextFitter(32_000, 'You are a test.', mcpTools(3));
    assert.match(String(fitter.fit([user('长'.repeat(40_000))]).notice), /^\(this message is about/);
  });

  test('MCP schemas count in the reserve', () => {
    const schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`field_${index}`, { type: 'string', description: 'a field' }])) };
    const plain = new ContextFitter(1_000_000, '', { x__y: tool({ description: 'd', inputSchema: jsonSchema({ type: 'object' }) }) });
    const big = new ContextFitter(1_000_000, '', { x__y: tool({ description: 'd', inputSchema: jsonSchema(schema as Parameters<typeof jsonSchema>[0]) }) });
    assert.ok(reserveOf(big) - reserveOf(plain) > 1_000, `${reserveOf(big)} vs ${reserveOf(plain)}`);
  });
});

/** Every tool result in `messages` answers a call made earlier in `messages`. */
const pairsKept = (messages: readonly ModelMessage[]): boolean => {
  const calls = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const part of message.content) if (part.type === 'tool-call') calls.add(part.toolCallId);
    }
    if (message.role === 'tool' && message.content.some((part) => part.type === 'tool-result' && !calls.has(part.toolCallId))) return false;
  }
  return true;
};

describe('ContextFitter evicts in chunks (the default), so the prefix it sends stays the same', { timeout: 60_000 }, () => {
  for (const windowTokens of [24_000, 6_000]) {
    test(`once the ${windowTokens.toLocaleString('en-US')}-token window is full, older turns go out together and the kept start does not move until it is full again`, () => {
      const fitter = new ContextFitter(windowTokens, 'You are a test.', {});
      const room = windowTokens - reserveOf(fitter);
      const history: ModelMessage[] = [];
      let previous: ModelMessage[] | undefined;
      let fits = 0;
      let evictions = 0;
      let sameStart = 0;
      for (let index = 0; index < 60; index++) {
        for (const step of turn(index)) {
          history.push(...step);
          const fitted = fitter.fit(history);
          fits++;
          assert.ok(fitted.estimatedTokens <= room, `turn ${index}: within the room for history`);
          assert.equal(fitted.messages[0]?.role, 'user', `turn ${index}: starts on a turn`);
          assert.ok(pairsKept(fitted.messages), `turn ${index}: every result has its call`);
          const first = fitted.messages[0];
          if (previous !== undefined && previous[0] !== first) {
            // A new start: only where the whole last request would no longer have fitted, and down to about 70%.
            evictions++;
            assert.ok(fitted.estimatedTokens <= Math.floor(room * EVICT_TO_SHARE) + 2_000, `turn ${index}: evicted to about ${EVICT_TO_SHARE}`);
          } else if (previous !== undefined) {
            sameStart++;
            // The same start: what was sent before is sent again, message for message, with the new messages after it.
            previous.forEach((message, position) => assert.equal(fitted.messages[position], message, `turn ${index}: message ${position} is the one sent before`));
          }
          previous = fitted.messages;
        }
      }
      assert.ok(evictions > 0, 'the window filled');
      assert.ok(sameStart >= evictions * 5, `${sameStart} fits kept the start, ${evictions} moved it`);
      // The old fitter moved the start at nearly every step once full.
      let moved = 0;
      let before: ModelMessage | undefined;
      const old = new ContextFitter(windowTokens, 'You are a test.', {}, { eviction: 'turns' });
      const again: ModelMessage[] = [];
      for (let index = 0; index < 60; index++) {
        for (const step of turn(index)) {
          again.push(...step);
          const first = old.fit(again).messages[0];
          if (before !== undefined && first !== before) moved++;
          before = first;
        }
      }
      // (In the 6k window a single long result is a quarter of the room, so even turn by turn drops turns in bursts.)
      if (windowTokens === 24_000) assert.ok(evictions * 3 < moved, `chunked: ${evictions} new starts in ${fits} fits; turn by turn: ${moved}`);
      else assert.ok(evictions <= moved, `chunked: ${evictions} new starts in ${fits} fits; turn by turn: ${moved}`);
    });
  }

  test('a /compact summary stays first across evictions, and a new array starts the measures again', () => {
    const fitter = new ContextFitter(6_000, 'You are a test.', {});
    const summary = [user(`${COMPACTION_SUMMARY_PREFIX}:\nthe user read twelve files.`), assistant('Understood.')];
    const history: ModelMessage[] = [...summary];
    const starts = new Set<ModelMessage>();
    for (let index = 0; index < 40; index++) {
      for (const step of turn(index)) {
        history.push(...step);
        const fitted = fitter.fit(history);
        assert.equal(fitted.messages[0], summary[0]);
        assert.equal(fitted.messages[1], summary[1]);
        assert.equal(fitted.messages[2]?.role, 'user');
        starts.add(fitted.messages[2] as ModelMessage);
      }
    }
    assert.ok(starts.size > 1 && starts.size < 15, `${starts.size} different starts after the summary`);
    // /clear: a new array that fits whole is sent whole.
    const cleared = [user('first'), assistant('one'), user('second')];
    assert.deepEqual(fitter.fit(cleared).messages, cleared);
  });
});
