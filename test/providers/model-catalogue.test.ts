import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptsImages, contextWindowFor, estimateCost, supportsExplicitCache, thinkingSupportOf, visionModelFor } from '../../src/models/model-catalogue.ts';

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

describe('acceptsImages', () => {
  test('the vision models are marked: Qwen-VL, Qwen3-VL, QVQ on DashScope, gpt-4o* and gpt-4.1*', () => {
    for (const model of ['qwen-vl-max', 'qwen-vl-max-latest', 'qwen-vl-plus-2025-08-15', 'qwen3-vl-plus', 'qwen3-vl-flash', 'qwen3-vl-235b-a22b-instruct', 'qwen2.5-vl-72b-instruct', 'qvq-max', 'gpt-4o', 'gpt-4o-mini-2024-07-18', 'gpt-4.1', 'gpt-4.1-nano']) {
      assert.equal(acceptsImages(model), true, model);
    }
  });

  test('text models are not, and neither is the mock', () => {
    for (const model of ['qwen-plus-latest', 'qwen3-max', 'qwen3-coder-plus', 'qwq-plus', 'deepseek-chat', 'gpt-3.5-turbo', 'mock', 'llama3:8b', '']) {
      assert.equal(acceptsImages(model), false, model);
    }
  });

  test('a model the table does not know counts as a vision model when named like one', () => {
    assert.equal(acceptsImages('llava:13b'), true);
    assert.equal(acceptsImages('Qwen/Qwen2-VL-7B-Instruct'), true);
    assert.equal(acceptsImages('llama-3.2-11b-vision-instruct'), true);
    assert.equal(acceptsImages('devlin-7b'), false);
  });

  test('their windows and thinking, and the model named to switch to, which reads images itself', () => {
    assert.equal(contextWindowFor('qwen3-vl-plus'), 262_144);
    assert.equal(contextWindowFor('qwen-vl-max-latest'), 131_072);
    assert.equal(thinkingSupportOf('qwen3-vl-plus'), 'hybrid');
    assert.equal(thinkingSupportOf('qwen3-vl-235b-a22b-thinking'), 'always');
    assert.equal(thinkingSupportOf('qwen3-vl-235b-a22b-instruct'), 'never');
    assert.equal(thinkingSupportOf('qvq-max'), 'always');
    for (const provider of ['dashscope', 'openai', 'mock']) assert.equal(acceptsImages(visionModelFor(provider)), true, provider);
  });
});
