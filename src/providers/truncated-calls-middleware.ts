import type { LanguageModelV4Middleware, LanguageModelV4StreamPart } from '@ai-sdk/provider';

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
export function truncatedCallsMiddleware(): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',
    async wrapStream({ doStream }) {
      const { stream, ...rest } = await doStream();
      const held: Extract<LanguageModelV4StreamPart, { type: 'tool-call' }>[] = [];
      const transformed = stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === 'tool-call') {
              held.push(part);
              return;
            }
            if (part.type === 'finish') {
              const cut = part.finishReason.unified === 'length';
              for (const call of held.splice(0)) {
                controller.enqueue(cut ? { ...call, providerMetadata: { ...call.providerMetadata, ...TRUNCATED_CALL } } : call);
              }
            }
            controller.enqueue(part);
          },
          flush(controller) {
            for (const call of held.splice(0)) controller.enqueue(call);
          },
        }),
      );
      return { stream: transformed, ...rest };
    },
  };
}
