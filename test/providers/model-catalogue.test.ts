import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contextWindowFor, estimateCost, supportsExplicitCache } from '../../src/providers/model-catalogue.ts';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({ inputTokens, outputTokens, cachedInputTokens });

describe('contextWindowFor', () => {
  test('known models, matched by prefix', () => {
    assert.equal(contextWindowFor('qwen-plus'), 131_072);
    assert.equal(contextWindowFor('qwen-plus-latest'), 131_072);
    assert.equal(contextWindowFor('qwen-plus-2025-09-11'), 131_072);
    assert.equal(contextWindowFor('qwen-max-latest'), 32_768);
    assert.equal(contextWindowFor('qwen3-max'), 262_144);
    assert.equal(contextWindowFor('deepseek-chat'), 65_536);
  });

  test('the longest prefix wins', () => {
    assert.equal(contextWindowFor('gpt-4o-mini-2024-07-18'), 128_000);
    assert.equal(contextWindowFor('gpt-4.1'), 1_047_576);
    assert.equal(contextWindowFor('qwen3-coder-plus'), 1_000_000);
  });

  test('an unknown model gets the conservative default', () => {
    assert.equal(contextWindowFor('llama3:8b'), 32_768);
    assert.equal(contextWindowFor(''), 32_768);
    assert.equal(contextWindowFor('mock'), 32_768);
  });
});

describe('estimateCost', () => {
  test('input and output at list price per million tokens', () => {
    // qwen-plus: $0.4 in, $1.2 out per million.
    assert.ok(Math.abs(estimateCost('qwen-plus-latest', usage(1_000_000, 1_000_000))! - 1.6) < 1e-9);
    assert.ok(Math.abs(estimateCost('qwen-plus-latest', usage(2000, 500))! - (2000 * 0.4 + 500 * 1.2) / 1e6) < 1e-12);
  });

  test('cached input tokens are billed at the cached price', () => {
    // gpt-4o-mini: $0.15 in, $0.075 cached, $0.6 out.
    const cost = estimateCost('gpt-4o-mini', usage(1_000_000, 0, 400_000));
    assert.ok(Math.abs(cost! - (600_000 * 0.15 + 400_000 * 0.075) / 1e6) < 1e-12, String(cost));
  });

  test('cached tokens never count for more than the input', () => {
    const cost = estimateCost('gpt-4o-mini', usage(100, 0, 1000));
    assert.ok(Math.abs(cost! - (100 * 0.075) / 1e6) < 1e-15, String(cost));
  });

  test('without a cached price, cached tokens cost the input price', () => {
    // qwen3-235b-a22b: $0.7 in, no cached price, not priced by DashScope's cache rates.
    assert.ok(Math.abs(estimateCost('qwen3-235b-a22b', usage(1000, 0, 1000))! - (1000 * 0.7) / 1e6) < 1e-12);
  });

  test('unknown models and the mock have no price', () => {
    assert.equal(estimateCost('llama3:8b', usage(1000, 1000)), undefined);
    assert.equal(estimateCost('mock', usage(1000, 1000)), undefined);
  });

  test('no tokens, no cost', () => {
    assert.equal(estimateCost('qwen-plus', usage(0, 0)), 0);
  });

  test(
    'a smaller sibling is not priced as its family',
    () => {
      const cost = estimateCost('gpt-4.1-mini', usage(1_000_000, 0));
      assert.ok(cost === undefined || Math.abs(cost - 0.4) < 1e-9, `got ${cost}`);
    },
  );
});

describe('supportsExplicitCache', () => {
  test('stable names from the Context cache page, matched exactly: no snapshot, no -latest, no other provider', () => {
    for (const model of ['qwen-plus', 'qwen3-max', 'qwen-flash', 'qwen3-coder-plus', 'qwen3-coder-flash']) assert.ok(supportsExplicitCache(model), model);
    for (const model of ['qwen-plus-latest', 'qwen-plus-2025-09-11', 'qwen-max', 'qwen-turbo', 'gpt-4o-mini', 'deepseek-chat']) assert.equal(supportsExplicitCache(model), false, model);
  });

  test('DashScope cache hits are priced at 20% (implicit) or 10% (explicit) of the input, creation at 125%', () => {
    // qwen-flash: $0.05 in per million tokens.
    const implicit = estimateCost('qwen-flash', { inputTokens: 4_000, outputTokens: 0, cachedInputTokens: 2_000 });
    assert.ok(Math.abs(implicit! - (2_000 * 0.05 + 2_000 * 0.05 * 0.2) / 1e6) < 1e-15, String(implicit));
    const explicit = estimateCost('qwen-flash', { inputTokens: 4_000, outputTokens: 0, cachedInputTokens: 2_000, explicitCachedInputTokens: 2_000, cacheCreationInputTokens: 1_000 });
    assert.ok(Math.abs(explicit! - (1_000 * 0.05 + 1_000 * 0.05 * 1.25 + 2_000 * 0.05 * 0.1) / 1e6) < 1e-15, String(explicit));
  });
});
