import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { PartFilter } from './part-filters.ts';

/** Provider metadata that marks a tool call written when the answer hit its output limit. */
const TRUNCATED_CALL = { sylvan: { truncatedByLength: true } } as const;

export function isTruncatedCall(call: { providerMetadata?: Record<string, Record<string, unknown> | undefined> }): boolean {
  return call.providerMetadata?.sylvan?.truncatedByLength === true;
}

/**
 * Holds each step's tool calls until the finish reason is known. When it is `length`, the
 * arguments may be cut off mid-way, so each call is marked (see `isTruncatedCall`) and the step
 * answers it with an error instead of running it.
 */
export function truncatedCallsFilter(): PartFilter {
  const held: Extract<LanguageModelV4StreamPart, { type: 'tool-call' }>[] = [];
  return {
    transform(part, emit) {
      if (part.type === 'tool-call') {
        held.push(part);
        return;
      }
      if (part.type === 'finish') {
        const cut = part.finishReason.unified === 'length';
        for (const call of held.splice(0)) emit(cut ? { ...call, providerMetadata: { ...call.providerMetadata, ...TRUNCATED_CALL } } : call);
      }
      emit(part);
    },
    flush(emit) {
      for (const call of held.splice(0)) emit(call);
    },
  };
}
