import type { LanguageModelV2, LanguageModelV3, LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';

/** Hands a part on to the next filter (the last one's go to the SDK). */
export type EmitPart = (part: LanguageModelV4StreamPart) => void;

/**
 * One step of what Sylvan does to a model's stream before the SDK reads it: each part in, any
 * number of parts out. A filter keeps its own state per stream, so `start` makes a fresh one for
 * each request.
 */
export interface PartFilter {
  transform(part: LanguageModelV4StreamPart, emit: EmitPart): void;
  /** The stream ended: parts still held go out now. */
  flush?(emit: EmitPart): void;
}

/** A filter's maker, called once per stream. */
export type PartFilterStart = () => PartFilter;

type WrappableModel = LanguageModelV2 | LanguageModelV3 | LanguageModelV4;

/** What a model made here was made of, so more filters join the same pass instead of another one. */
const FILTERED = Symbol('sylvan.partFilters');
interface Filtered {
  [FILTERED]?: { inner: WrappableModel; starts: readonly PartFilterStart[] };
}

/**
 * The model with `starts`' filters run on its stream, in order, after those it already has: all of
 * them in one pass (a single TransformStream). Every TransformStream costs each part a few promises,
 * and an answer of 200 KB streams as ten thousand parts, so four middlewares each with its own
 * stream cost a tenth of the CPU of showing it.
 */
export function withPartFilters(model: WrappableModel, starts: readonly PartFilterStart[]): LanguageModelV4 {
  const earlier = (model as Filtered)[FILTERED];
  const inner = earlier?.inner ?? model;
  const all = [...(earlier?.starts ?? []), ...starts];
  const wrapped = wrapLanguageModel({
    model: inner,
    middleware: {
      specificationVersion: 'v4',
      async wrapStream({ doStream }) {
        const { stream, ...rest } = await doStream();
        return { stream: stream.pipeThrough(filterPass(all.map((start) => start()))), ...rest };
      },
    },
  });
  Object.defineProperty(wrapped, FILTERED, { value: { inner, starts: all } });
  return wrapped;
}

/** The filters as one TransformStream: each one's output is the next one's input. */
function filterPass(filters: readonly PartFilter[]): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  let controller: TransformStreamDefaultController<LanguageModelV4StreamPart>;
  const emitters: EmitPart[] = [];
  emitters[filters.length] = (part) => controller.enqueue(part);
  for (let index = filters.length - 1; index >= 0; index--) {
    const filter = filters[index]!;
    const next = emitters[index + 1]!;
    emitters[index] = (part) => filter.transform(part, next);
  }
  return new TransformStream({
    start(given) {
      controller = given;
    },
    transform(part) {
      emitters[0]!(part);
    },
    flush() {
      // Each filter flushes into the ones after it, which then flush in turn.
      filters.forEach((filter, index) => filter.flush?.(emitters[index + 1]!));
    },
  });
}
