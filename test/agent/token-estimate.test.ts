import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelMessage } from 'ai';
import {
  estimateMessageTokens,
  estimateTextTokens,
  MESSAGE_OVERHEAD_TOKENS,
  TokenCalibration,
} from '../../src/shared/text/token-estimate.ts';

describe('estimateTextTokens', () => {
  test('counts about one token per Chinese character', () => {
    const chinese = '今天天气很好我们去公园散步吧'.repeat(8).slice(0, 100);
    assert.equal(chinese.length, 100);
    const tokens = estimateTextTokens(chinese);
    assert.ok(tokens >= 90 && tokens <= 110, `got ${tokens}`);
  });

  test('counts about four English characters per token', () => {
    const english = 'The quick brown fox jumps over the lazy dog. '.repeat(10).slice(0, 400);
    const tokens = estimateTextTokens(english);
    assert.ok(tokens >= 90 && tokens <= 110, `got ${tokens}`);
  });

  test('Chinese costs far more per character than English', () => {
    assert.ok(estimateTextTokens('你好世界你好世界') > 3 * estimateTextTokens('hello wo'));
  });

  test('counts kana, hangul, full-width punctuation and rare ideographs as dense', () => {
    assert.equal(estimateTextTokens('こんにちは'), 5);
    assert.equal(estimateTextTokens('カタカナ'), 4);
    assert.equal(estimateTextTokens('안녕하세요'), 5);
    assert.equal(estimateTextTokens('，。！？'), 4);
    assert.equal(estimateTextTokens('𠀀𠀁'), 2, 'CJK extension B characters are surrogate pairs');
  });

  test('mixes both rates and rounds the other text up', () => {
    assert.equal(estimateTextTokens(''), 0);
    assert.equal(estimateTextTokens('a'), 1);
    assert.equal(estimateTextTokens('中文abcde'), 2 + 2);
  });
});

describe('estimateMessageTokens', () => {
  test('adds a per-message overhead', () => {
    assert.equal(estimateMessageTokens({ role: 'user', content: '' }), MESSAGE_OVERHEAD_TOKENS);
    assert.equal(estimateMessageTokens({ role: 'user', content: 'abcdefgh' }), MESSAGE_OVERHEAD_TOKENS + 2);
  });

  test('counts tool call inputs and JSON results on their JSON text, plus an overhead per part', () => {
    const input = { city: '杭州', days: 3, note: 'x'.repeat(400) };
    const call: ModelMessage = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input }],
    };
    const inputTokens = estimateTextTokens(JSON.stringify(input));
    const callTokens = estimateMessageTokens(call);
    assert.ok(callTokens > MESSAGE_OVERHEAD_TOKENS + inputTokens, `got ${callTokens}`);
    assert.ok(callTokens < MESSAGE_OVERHEAD_TOKENS + inputTokens + 20, `got ${callTokens}`);

    const value = { rows: Array.from({ length: 50 }, (_, index) => ({ index, name: `row ${index}` })) };
    const result: ModelMessage = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: { type: 'json', value } }],
    };
    const valueTokens = estimateTextTokens(JSON.stringify(value));
    const resultTokens = estimateMessageTokens(result);
    assert.ok(resultTokens > valueTokens && resultTokens < valueTokens + 20, `got ${resultTokens}`);
  });

  test('counts text, reasoning and error results', () => {
    const assistant: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: '想一想'.repeat(10) },
        { type: 'text', text: '好的。' },
      ],
    };
    assert.ok(estimateMessageTokens(assistant) >= 33);
    const failed: ModelMessage = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: 'error-text', value: 'e'.repeat(4000) } }],
    };
    assert.ok(estimateMessageTokens(failed) >= 1000);
  });

  test('estimates each message object once (cache keyed by the message)', () => {
    let reads = 0;
    const message = {
      role: 'user' as const,
      get content(): string {
        reads++;
        return 'hello there, how are you?';
      },
    };
    const first = estimateMessageTokens(message);
    const second = estimateMessageTokens(message);
    assert.equal(first, second);
    assert.equal(reads, 1);
    estimateMessageTokens({ role: 'user', content: 'hello there, how are you?' });
    assert.equal(reads, 1);
  });

  test('never throws on odd content (circular tool input)', () => {
    const input: Record<string, unknown> = {};
    input.self = input;
    const message: ModelMessage = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input }],
    };
    assert.ok(estimateMessageTokens(message) > MESSAGE_OVERHEAD_TOKENS);
  });
});

describe('TokenCalibration', () => {
  test('starts neutral', () => {
    const calibration = new TokenCalibration();
    assert.equal(calibration.ratio, 1);
    assert.equal(calibration.apply(1000), 1000);
  });

  test('learns the ratio from the first usable observation', () => {
    const calibration = new TokenCalibration();
    calibration.observe(1000, 700);
    assert.equal(calibration.ratio, 0.7);
    assert.equal(calibration.apply(1000), 700);
  });

  test('smooths later observations instead of jumping', () => {
    const calibration = new TokenCalibration({ smoothing: 0.5 });
    calibration.observe(1000, 800);
    calibration.observe(1000, 1200);
    assert.ok(Math.abs(calibration.ratio - 1.0) < 1e-9, `got ${calibration.ratio}`);
    assert.equal(calibration.observations, 2);
  });

  test('clamps the ratio between 0.5 and 2', () => {
    const low = new TokenCalibration();
    low.observe(1000, 10);
    assert.equal(low.ratio, 0.5);
    const high = new TokenCalibration();
    high.observe(1000, 90_000);
    assert.equal(high.ratio, 2);
  });

  test('ignores missing, zero, non-finite and tiny observations', () => {
    const calibration = new TokenCalibration();
    calibration.observe(1000, undefined);
    calibration.observe(1000, 0);
    calibration.observe(Number.NaN, 500);
    calibration.observe(10, 5);
    assert.equal(calibration.ratio, 1);
    assert.equal(calibration.observations, 0);
  });
});
