import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { withPartFilters, type PartFilterStart } from '../../src/providers/part-filters.ts';

/** One text block streamed as `deltas`, then a finish. */
export function textParts(deltas: readonly string[], id = 't'): LanguageModelV4StreamPart[] {
  return [
    { type: 'text-start', id },
    ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id, delta })),
    { type: 'text-end', id },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } } },
  ];
}

/** What the SDK would read from a model streaming `parts` once `starts`' filters are on it. */
export async function throughFilters(parts: readonly LanguageModelV4StreamPart[], starts: readonly PartFilterStart[]): Promise<LanguageModelV4StreamPart[]> {
  const model = withPartFilters(new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream([...parts]) }) }), starts);
  return streamedParts(model);
}

/** Every part `model` streams for one request, as the SDK would read them. */
export async function streamedParts(model: LanguageModelV4): Promise<LanguageModelV4StreamPart[]> {
  const { stream } = await model.doStream({ prompt: [] } as never);
  const read: LanguageModelV4StreamPart[] = [];
  for await (const part of stream as unknown as AsyncIterable<LanguageModelV4StreamPart>) read.push(part);
  return read;
}
