import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emptyUsage } from '../../src/shared/token-usage.ts';
import { canonicalJson, guardAfterStep, RepeatedCallDetector, type TurnLimits } from '../../src/agent/loop/guards.ts';

describe('canonicalJson', () => {
  test('key order does not matter', () => {
    assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
    assert.equal(canonicalJson({ b: 2, a: 1 }), '{"a":1,"b":2}');
  });

  test('nested objects are sorted too', () => {
    const one = { outer: { z: [1, { y: 'x', x: 'y' }], a: null }, city: '北京' };
    const two = { city: '北京', outer: { a: null, z: [1, { x: 'y', y: 'x' }] } };
    assert.equal(canonicalJson(one), canonicalJson(two));
    assert.equal(canonicalJson(two), '{"city":"北京","outer":{"a":null,"z":[1,{"x":"y","y":"x"}]}}');
  });

  test('array order matters', () => {
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
  });

  test('undefined properties are dropped, as JSON would', () => {
    assert.equal(canonicalJson({ path: 'a.txt', offset: undefined }), canonicalJson({ path: 'a.txt' }));
    assert.equal(canonicalJson(undefined), 'null');
  });

  test('different values differ, including strings versus numbers', () => {
    assert.notEqual(canonicalJson({ value: 1 }), canonicalJson({ value: '1' }));
    assert.notEqual(canonicalJson({ city: 'Beijing' }), canonicalJson({ city: 'beijing' }));
  });
});

describe('RepeatedCallDetector', () => {
  test('the call that reaches the limit is the repeated one', () => {
    const detector = new RepeatedCallDetector(3);
    assert.equal(detector.record('get_weather', { city: '北京' }), false);
    assert.equal(detector.record('get_weather', { city: '北京' }), false);
    assert.equal(detector.repeated, undefined);
    assert.equal(detector.record('get_weather', { city: '北京' }), true);
    assert.deepEqual(detector.repeated, { toolName: 'get_weather', input: { city: '北京' } });
  });

  test('identical means same tool and same arguments, whatever the key order', () => {
    const detector = new RepeatedCallDetector(2);
    assert.equal(detector.record('read_file', { path: 'a', limit: 5 }), false);
    assert.equal(detector.record('read_file', { limit: 5, path: 'a' }), true);
  });

  test('other arguments or another tool are counted apart', () => {
    const detector = new RepeatedCallDetector(2);
    assert.equal(detector.record('get_weather', { city: 'Paris' }), false);
    assert.equal(detector.record('get_weather', { city: 'London' }), false);
    assert.equal(detector.record('calculate', { city: 'Paris' }), false);
    assert.equal(detector.repeated, undefined);
  });

  test('the first repeated call is the one remembered', () => {
    const detector = new RepeatedCallDetector(1);
    assert.equal(detector.record('a', {}), true);
    assert.equal(detector.record('b', {}), true);
    assert.equal(detector.repeated?.toolName, 'a');
  });
});

describe('guardAfterStep', () => {
  const limits: TurnLimits = { maxSteps: 3, tokenBudget: 1000, maxIdenticalCalls: 3 };
  const usage = (inputTokens: number, outputTokens: number) => ({ ...emptyUsage(), inputTokens, outputTokens });
  const state = (overrides: Partial<Parameters<typeof guardAfterStep>[1]> = {}) => ({
    steps: 1,
    usage: usage(10, 10),
    wantsAnotherStep: true,
    repeated: false,
    ...overrides,
  });

  test('nothing to stop below every limit', () => {
    assert.equal(guardAfterStep(limits, state()), undefined);
  });

  test('max-steps only when the model wants another step', () => {
    assert.equal(guardAfterStep(limits, state({ steps: 3 })), 'max-steps');
    assert.equal(guardAfterStep(limits, state({ steps: 3, wantsAnotherStep: false })), undefined);
    assert.equal(guardAfterStep(limits, state({ steps: 2 })), undefined);
  });

  test('token budget counts input plus output, and is exceeded only above it', () => {
    assert.equal(guardAfterStep(limits, state({ usage: usage(600, 400) })), undefined);
    assert.equal(guardAfterStep(limits, state({ usage: usage(600, 401) })), 'token-budget');
    assert.equal(guardAfterStep(limits, state({ usage: usage(1001, 0), wantsAnotherStep: false })), 'token-budget');
  });

  test('precedence: repeated call, then token budget, then step limit', () => {
    const everything = state({ steps: 3, usage: usage(5000, 5000), repeated: true });
    assert.equal(guardAfterStep(limits, everything), 'repeated-call');
    assert.equal(guardAfterStep(limits, { ...everything, repeated: false }), 'token-budget');
    assert.equal(guardAfterStep(limits, { ...everything, repeated: false, usage: usage(1, 1) }), 'max-steps');
  });
});
