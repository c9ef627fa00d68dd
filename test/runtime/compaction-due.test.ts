import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ModelMessage } from 'ai';
import { COMPACTION_SUMMARY_PREFIX } from '../../src/shared/compaction-summary.ts';
import { Conversation } from '../../src/agent/context/conversation.ts';
import { WindowMeter } from '../../src/runtime/context-meter.ts';

const long = 'word '.repeat(3_000);
const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const answer = (text: string): ModelMessage => ({ role: 'assistant', content: text });

describe('when the history is due for a summary', () => {
  test('a full history needs two turns since the last summary, counted again after /compact replaced the history', () => {
    const conversation = new Conversation();
    const meter = new WindowMeter(8_000, conversation, 'turns', { instructions: 'be brief', tools: {} });
    conversation.append(user(long), answer('ok'));
    assert.equal(meter.needsCompaction(), false, 'one turn alone is never summarised');
    conversation.append(user(long), answer('ok'));
    assert.equal(meter.needsCompaction(), true);

    conversation.replace([user(`${COMPACTION_SUMMARY_PREFIX}: ${long}`), answer('noted'), user(long), answer('ok')]);
    assert.equal(meter.needsCompaction(), false, 'a summary and one turn since');
    conversation.append(user('and then?'), answer('ok'));
    assert.equal(meter.needsCompaction(), true);
  });

  test('after a failed automatic summary the next waits 2, then 4 turns more; a success or a replaced history ends the wait', () => {
    const conversation = new Conversation();
    const meter = new WindowMeter(8_000, conversation, 'turns', { instructions: 'be brief', tools: {} });
    const turn = () => conversation.append(user(long), answer('ok'));
    turn();
    turn();
    assert.equal(meter.needsCompaction(), true);
    meter.summaryTried(false);
    assert.equal(meter.needsCompaction(), false, 'not again before the next turn');
    turn();
    assert.equal(meter.needsCompaction(), false, 'one turn after the failure');
    turn();
    assert.equal(meter.needsCompaction(), true, 'two turns after it');
    meter.summaryTried(false);
    for (let waited = 1; waited < 4; waited++) {
      turn();
      assert.equal(meter.needsCompaction(), false, `${waited} of the 4 turns after the second failure`);
    }
    turn();
    assert.equal(meter.needsCompaction(), true, 'four turns after the second failure');
    meter.summaryTried(true);
    assert.equal(meter.needsCompaction(), true, 'a success forgets the failures');

    meter.summaryTried(false);
    assert.equal(meter.needsCompaction(), false);
    conversation.replace([user(long), answer('ok'), user(long), answer('ok')]);
    assert.equal(meter.needsCompaction(), true, 'a history replaced (/clear, /rewind) is not held back by failures on the old one');
  });
});
