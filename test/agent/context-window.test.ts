import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelMessage } from 'ai';
import { fitToWindow } from '../../src/agent/context/context-window.ts';
import { findUnansweredToolCalls, INTERRUPTED_TOOL_RESULT_TEXT, repairHistory } from '../../src/agent/context/history-repair.ts';
import { COMPACTION_SUMMARY_PREFIX } from '../../src/shared/compaction-summary.ts';
import { estimateMessageTokens } from '../../src/shared/text/token-estimate.ts';

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const assistant = (text: string): ModelMessage => ({ role: 'assistant', content: text });
const call = (toolCallId: string, toolName = 'read_file'): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId, toolName, input: { path: `${toolCallId}.txt` } }],
});
const result = (toolCallId: string, text: string, toolName = 'read_file'): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId, toolName, output: { type: 'text', value: text } }],
});

/** One turn of four messages: question, tool call, tool result, answer. */
const toolTurn = (index: number, resultText = `contents of file ${index}`): ModelMessage[] => [
  user(`question ${index}`),
  call(`call-${index}`),
  result(`call-${index}`, resultText),
  assistant(`answer ${index}`),
];

const total = (messages: readonly ModelMessage[]): number =>
  messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);

const firstText = (message: ModelMessage | undefined): string => {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  const part = message.content[0];
  if (part?.type === 'text') return part.text;
  if (part?.type === 'tool-result' && part.output.type === 'text') return part.output.value;
  return '';
};

/** A history is valid when repairing it changes nothing. */
const assertValid = (messages: ModelMessage[]): void => {
  assert.deepEqual(findUnansweredToolCalls(messages), []);
  assert.deepEqual(repairHistory(messages), messages);
};

describe('fitToWindow', () => {
  test('keeps everything when it fits, in a new array, without mutating the input', () => {
    const history = [...toolTurn(1), ...toolTurn(2), user('now this')];
    const snapshot = structuredClone(history);
    const fitted = fitToWindow(history, { windowTokens: 10_000, reservedTokens: 1_000 });
    assert.deepEqual(fitted.messages, history);
    assert.notEqual(fitted.messages, history);
    assert.deepEqual(history, snapshot);
    assert.equal(fitted.droppedTurns, 0);
    assert.equal(fitted.droppedMessages, 0);
    assert.equal(fitted.estimatedTokens, total(history));
  });

  test('drops the oldest whole turns first and keeps the newest', () => {
    const turns = Array.from({ length: 10 }, (_, index) => toolTurn(index));
    const history = [...turns.flat(), user('current question')];
    const budget = total([...turns.slice(-3).flat(), user('current question')]);
    const fitted = fitToWindow(history, { windowTokens: budget + 500, reservedTokens: 500 });
    assert.deepEqual(fitted.messages, [...turns.slice(-3).flat(), user('current question')]);
    assert.equal(fitted.droppedTurns, 7);
    assert.equal(fitted.droppedMessages, 28);
    assert.ok(fitted.estimatedTokens <= budget);
  });

  test('never splits a tool call from its results and always starts with a user message', () => {
    const history = [
      ...toolTurn(1),
      user('two tools'),
      { role: 'assistant', content: [
        { type: 'text', text: 'checking both' },
        { type: 'tool-call', toolCallId: 'a', toolName: 'glob', input: { pattern: '*.ts' } },
        { type: 'tool-call', toolCallId: 'b', toolName: 'glob', input: { pattern: '*.md' } },
      ] },
      result('a', 'x'.repeat(300), 'glob'),
      result('b', 'y'.repeat(300), 'glob'),
      call('c'),
      result('c', 'z'.repeat(200)),
      assistant('done'),
      ...toolTurn(3),
      user('last'),
      call('d'),
    ] satisfies ModelMessage[];
    const repaired = repairHistory(history);
    for (let budget = 0; budget <= total(repaired) + 10; budget += 7) {
      const fitted = fitToWindow(repaired, { windowTokens: budget, reservedTokens: 0 });
      assert.equal(fitted.messages[0]?.role, 'user', `budget ${budget}`);
      assertValid(fitted.messages);
      assert.equal(firstText(fitted.messages.at(-3)), 'last', 'the current turn is always kept');
    }
  });

  test('keeps the current user message even when it alone overflows the window', () => {
    const huge = '长'.repeat(5_000);
    const history = [...toolTurn(1), user(huge)];
    const fitted = fitToWindow(history, { windowTokens: 1_000, reservedTokens: 200 });
    assert.deepEqual(fitted.messages, [user(huge)]);
    assert.equal(fitted.droppedTurns, 1);
    assert.ok(fitted.estimatedTokens > 800, 'the caller can see it does not fit');
  });

  test('shortens an oversized tool result with a note, without touching the original', () => {
    const big = 'log line\n'.repeat(5_778).slice(0, 52_000);
    const history = [...toolTurn(1, big), user('and now?')];
    const fitted = fitToWindow(history, { windowTokens: 32_000, reservedTokens: 4_000, maxToolResultTokens: 2_000 });
    assert.equal(fitted.shortenedResults, 1);
    assert.equal(fitted.droppedTurns, 0);
    const shortened = firstText(fitted.messages[2]);
    assert.match(shortened, /^log line\n/);
    assert.match(shortened, /\[… shortened from 52,000 to [\d,]+ characters to fit the context window\]$/);
    assert.ok(estimateMessageTokens(fitted.messages[2] as ModelMessage) <= 2_050);
    assert.equal(firstText(history[2]), big, 'the input message is unchanged');
  });

  test('shortens JSON results to their shortened JSON text', () => {
    const rows = Array.from({ length: 3_000 }, (_, index) => ({ index, name: `row number ${index}` }));
    const history: ModelMessage[] = [
      user('query'),
      call('q', 'query'),
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'q', toolName: 'query', output: { type: 'json', value: rows } }] },
      user('next'),
    ];
    const fitted = fitToWindow(history, { windowTokens: 8_000, reservedTokens: 0, maxToolResultTokens: 500 });
    const part = (fitted.messages[2] as { content: Array<{ output: { type: string; value: string } }> }).content[0];
    assert.equal(part?.output.type, 'text');
    assert.match(part?.output.value ?? '', /^\[\{"index":0,"name":"row number 0"\}/);
    assert.match(part?.output.value ?? '', /shortened from [\d,]+ to [\d,]+ characters/);
  });

  test('shortens the current turn’s results further when the turn alone does not fit', () => {
    const history = [...toolTurn(1), user('read two big files'), call('big-1'), result('big-1', 'a'.repeat(40_000)), call('big-2'), result('big-2', 'b'.repeat(4_000))];
    const fitted = fitToWindow(history, { windowTokens: 6_000, reservedTokens: 2_000 });
    assert.ok(fitted.estimatedTokens <= 4_000, `got ${fitted.estimatedTokens}`);
    assert.equal(fitted.messages[0]?.role, 'user');
    const currentTurn = fitted.messages.slice(-5);
    assert.equal(firstText(currentTurn[0]), 'read two big files');
    assert.match(firstText(currentTurn[2]), /shortened from 40,000/);
    assert.equal(firstText(currentTurn[4]), 'b'.repeat(4_000), 'the smaller result is left whole');
    assertValid(fitted.messages);
  });

  test('drops messages before the first user message', () => {
    const history = [assistant('stray'), result('x', 'orphan'), ...toolTurn(1), user('now')];
    const fitted = fitToWindow(history, { windowTokens: 10_000, reservedTokens: 0 });
    assert.equal(fitted.messages[0]?.role, 'user');
    assert.equal(fitted.droppedMessages, 2);
    assert.equal(fitted.droppedTurns, 0);
  });

  test('keeps the /compact summary ahead of older turns and drops it only when it cannot fit', () => {
    const summary = [user(`${COMPACTION_SUMMARY_PREFIX}: we fixed the parser.`), assistant('Understood.')];
    const turns = Array.from({ length: 6 }, (_, index) => toolTurn(index));
    const current = [user('what next?')];
    const history = [...summary, ...turns.flat(), ...current];
    const budget = total([...summary, ...turns.slice(-2).flat(), ...current]);
    const fitted = fitToWindow(history, { windowTokens: budget, reservedTokens: 0 });
    assert.deepEqual(fitted.messages, [...summary, ...turns.slice(-2).flat(), ...current]);
    assert.equal(fitted.droppedTurns, 4);

    const tight = fitToWindow(history, { windowTokens: total(current) + 5, reservedTokens: 0 });
    assert.deepEqual(tight.messages, current);
    assert.equal(tight.droppedTurns, 7);
  });

  test('estimates each message once however often the growing history is fitted', () => {
    let contentReads = 0;
    const counted = (message: ModelMessage): ModelMessage => {
      const content = message.content;
      return Object.defineProperty({ role: message.role }, 'content', {
        enumerable: true,
        get: () => {
          contentReads++;
          return content;
        },
      }) as ModelMessage;
    };
    const history: ModelMessage[] = [];
    let fits = 0;
    for (let index = 0; history.length < 3_000; index++) {
      for (const message of toolTurn(index)) history.push(counted(message));
      fitToWindow(history, { windowTokens: 4_000, reservedTokens: 1_000 });
      fits++;
    }
    // One read per message for its estimate, plus at most one per fit to look for a /compact summary.
    assert.ok(contentReads <= 3_000 + fits, `${contentReads} reads for ${fits} fits`);
    assert.ok(contentReads >= 3_000);
  });

  test('calls the estimate only for the kept window plus one turn, per fit', () => {
    let calls = 0;
    const estimate = (message: ModelMessage): number => {
      calls++;
      return estimateMessageTokens(message);
    };
    const history: ModelMessage[] = [];
    let fits = 0;
    let maxKept = 0;
    for (let index = 0; history.length < 3_000; index++) {
      history.push(...toolTurn(index));
      const fitted = fitToWindow(history, { windowTokens: 2_000, reservedTokens: 500, estimate });
      maxKept = Math.max(maxKept, fitted.messages.length);
      fits++;
    }
    assert.ok(maxKept < 200, `window keeps ${maxKept}`);
    assert.ok(calls <= fits * (maxKept + 4), `${calls} estimate calls for ${fits} fits`);
  });
});

describe('repairHistory', () => {
  const interrupted = (toolCallId: string, toolName = 'read_file') => ({
    type: 'tool-result' as const,
    toolCallId,
    toolName,
    output: { type: 'error-text' as const, value: INTERRUPTED_TOOL_RESULT_TEXT },
  });

  test('returns a valid history unchanged, message by message', () => {
    const history = [...toolTurn(1), ...toolTurn(2)];
    const repaired = repairHistory(history);
    assert.equal(repaired.length, history.length);
    repaired.forEach((message, index) => assert.equal(message, history[index]));
    assert.deepEqual(findUnansweredToolCalls(history), []);
  });

  test('answers a call cut off at the end of the history in a new tool message', () => {
    const history = [user('read it'), call('c1')];
    assert.deepEqual(findUnansweredToolCalls(history), [{ messageIndex: 1, toolCallId: 'c1', toolName: 'read_file' }]);
    const repaired = repairHistory(history);
    assert.deepEqual(repaired, [user('read it'), call('c1'), { role: 'tool', content: [interrupted('c1')] }]);
    assert.deepEqual(findUnansweredToolCalls(repaired), []);
  });

  test('adds the missing result to the existing tool message and before the next user message', () => {
    const twoCalls: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'glob', input: {} },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'glob', input: {} },
      ],
    };
    const history = [user('go'), twoCalls, result('c1', 'ok', 'glob'), user('hello?')];
    const repaired = repairHistory(history);
    assert.equal(repaired.length, 4);
    assert.deepEqual(repaired[2], {
      role: 'tool',
      content: [...(result('c1', 'ok', 'glob').content as unknown[]), interrupted('c2', 'glob')],
    });
    assert.equal(firstText(repaired[3]), 'hello?');
    assert.deepEqual(findUnansweredToolCalls(repaired), []);
  });

  test('keeps one result per call and drops duplicates', () => {
    const history: ModelMessage[] = [
      user('go'),
      call('c1'),
      { role: 'tool', content: [
        { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'first' } },
        { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'second' } },
      ] },
      result('c1', 'third'),
    ];
    assert.deepEqual(repairHistory(history), [user('go'), call('c1'), result('c1', 'first')]);
  });

  test('drops orphan results: unknown calls, results after a user message or a later assistant message', () => {
    const history = [
      user('go'),
      result('ghost', 'who called me?'),
      call('c1'),
      { role: 'tool', content: [
        { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'ok' } },
        { type: 'tool-result', toolCallId: 'zz', toolName: 'read_file', output: { type: 'text', value: 'stray' } },
      ] },
      call('c2'),
      assistant('thinking aloud'),
      result('c2', 'too late'),
    ] satisfies ModelMessage[];
    assert.deepEqual(repairHistory(history), [
      user('go'),
      call('c1'),
      result('c1', 'ok'),
      call('c2'),
      { role: 'tool', content: [interrupted('c2')] },
      assistant('thinking aloud'),
    ]);
  });

  test('settles a pending approval request as interrupted and drops the approval parts', () => {
    const history: ModelMessage[] = [
      user('delete it'),
      { role: 'assistant', content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'write_file', input: { path: 'a' } },
        { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
      ] },
    ];
    assert.deepEqual(repairHistory(history), [
      user('delete it'),
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'write_file', input: { path: 'a' } }] },
      { role: 'tool', content: [interrupted('c1', 'write_file')] },
    ]);
  });

  test('a denied call cut off before its result gets an execution-denied result', () => {
    const history: ModelMessage[] = [
      user('delete it'),
      { role: 'assistant', content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'write_file', input: {} },
        { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
      ] },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'ap1', approved: false, reason: 'not that file' }] },
    ];
    const repaired = repairHistory(history);
    assert.deepEqual(repaired.at(-1), {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'write_file', output: { type: 'execution-denied', reason: 'not that file' } }],
    });
    assert.equal(repaired.length, 3);
  });

  test('a finished approval flow keeps the call and its result only', () => {
    const history: ModelMessage[] = [
      user('write it'),
      { role: 'assistant', content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'write_file', input: {} },
        { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
      ] },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'ap1', approved: true }] },
      result('c1', 'written', 'write_file'),
      assistant('Done.'),
    ];
    const repaired = repairHistory(history);
    assert.deepEqual(repaired.map((message) => message.role), ['user', 'assistant', 'tool', 'assistant']);
    assert.deepEqual(repaired[2], result('c1', 'written', 'write_file'));
    assertValid(repaired);
  });

  test('never throws on damaged input and removes what cannot be sent', () => {
    const damaged = [
      null,
      user('hi'),
      { role: 'assistant', content: [null, { type: 'text', text: 'ok' }, { type: 'tool-call', toolName: 'no id' }] },
      { role: 'tool', content: 'not parts' },
      { role: 'wizard', content: 'x' },
      { role: 'assistant', content: [] },
    ] as unknown as ModelMessage[];
    assert.deepEqual(repairHistory(damaged), [user('hi'), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }]);
    assert.deepEqual(findUnansweredToolCalls(damaged), []);
  });
});
