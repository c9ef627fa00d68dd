import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { streamedParts, textParts, throughFilters } from '../helpers/part-filter-stream.ts';
import { withPartFilters, type PartFilter } from '../../src/providers/part-filters.ts';
import { thinkTagsFilter } from '../../src/providers/think-tags-filter.ts';

// <think>…</think> in the answer's text (a server without a reasoning parser) is read as reasoning,
// however the chunks cut it.

const joined = (parts: readonly LanguageModelV4StreamPart[], type: 'text-delta' | 'reasoning-delta') =>
  parts.map((part) => (part.type === type ? part.delta : '')).join('');

describe('think tags in the answer', () => {
  const answer = 'Sure.<think>The user says hi.</think>Hello!';
  for (let cut = 1; cut < answer.length; cut++) {
    test(`cut at ${cut}: the thinking is reasoning, the rest the answer`, async () => {
      const parts = await throughFilters(textParts([answer.slice(0, cut), answer.slice(cut)]), [thinkTagsFilter]);
      assert.equal(joined(parts, 'reasoning-delta'), 'The user says hi.');
      assert.equal(joined(parts, 'text-delta'), 'Sure.\nHello!');
    });
  }

  test('every reasoning block starts before its text and ends; the text block starts before its first text', async () => {
    const parts = await throughFilters(textParts(['<think>a', 'b</think>', 'answer', '<think>c</think>']), [thinkTagsFilter]);
    assert.deepEqual(
      parts.map((part) => part.type),
      ['reasoning-start', 'reasoning-delta', 'reasoning-delta', 'reasoning-end', 'text-start', 'text-delta', 'reasoning-start', 'reasoning-delta', 'reasoning-end', 'text-end', 'finish'],
    );
    assert.equal(joined(parts, 'reasoning-delta'), 'ab\nc');
  });

  test('an answer that is only thinking still starts and ends its text block', async () => {
    const parts = await throughFilters(textParts(['<think>only this</think>']), [thinkTagsFilter]);
    assert.deepEqual(parts.map((part) => part.type), ['reasoning-start', 'reasoning-delta', 'reasoning-end', 'text-start', 'text-end', 'finish']);
  });

  test('a <think> never closed: the rest is reasoning, ended with the text block', async () => {
    const parts = await throughFilters(textParts(['Hm. <think>still going', ' on']), [thinkTagsFilter]);
    assert.equal(joined(parts, 'text-delta'), 'Hm. ');
    assert.equal(joined(parts, 'reasoning-delta'), 'still going on');
    assert.deepEqual(parts.slice(-3).map((part) => part.type), ['reasoning-end', 'text-end', 'finish']);
  });

  test('text that only looks like the start of a tag is passed on once the next chunk says it is none', async () => {
    const parts = await throughFilters(textParts(['a <thin', 'g> b <', '']), [thinkTagsFilter]);
    assert.equal(joined(parts, 'text-delta'), 'a <thing> b <');
    assert.equal(joined(parts, 'reasoning-delta'), '');
  });
});

describe('filters added to a filtered model', () => {
  const marking = (mark: string) => (): PartFilter => ({
    transform(part, emit) {
      emit(part.type === 'text-delta' ? { ...part, delta: `${part.delta}${mark}` } : part);
    },
  });

  test('run once each, in the order they were added, in one pass over the stream', async () => {
    let pipes = 0;
    const stream = convertArrayToReadableStream(textParts(['x']));
    const pipeThrough = stream.pipeThrough.bind(stream);
    stream.pipeThrough = ((transform: TransformStream) => {
      pipes++;
      return pipeThrough(transform);
    }) as typeof stream.pipeThrough;
    const inner = new MockLanguageModelV4({ doStream: async () => ({ stream }) });
    const model = withPartFilters(withPartFilters(inner, [marking('1')]), [marking('2'), marking('3')]);
    const parts = await streamedParts(model);
    assert.equal(joined(parts, 'text-delta'), 'x123');
    assert.equal(pipes, 1);
  });
});
