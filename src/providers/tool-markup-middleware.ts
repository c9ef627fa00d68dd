import type { LanguageModelV4Middleware, LanguageModelV4StreamPart } from '@ai-sdk/provider';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

/** The length of the longest suffix of `text` that could start `tag`. */
function partialTagAt(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(-length))) return length;
  }
  return 0;
}

/**
 * Moves `<tool_call>…</tool_call>` markup that a server leaked into the answer (llama.cpp and
 * vLLM without a tool parser) out of the text and into the reasoning, tags kept, so it is never
 * shown as the answer and the step can report that the model wrote a call it could not make.
 */
export function toolMarkupMiddleware(): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',
    async wrapStream({ doStream }) {
      const { stream, ...rest } = await doStream();
      let buffer = '';
      let inside = false;
      let textId = '';
      let reasoningCount = 0;
      const emitMarkup = (controller: TransformStreamDefaultController<LanguageModelV4StreamPart>, markup: string) => {
        const id = `tool-markup-${reasoningCount++}`;
        controller.enqueue({ type: 'reasoning-start', id });
        controller.enqueue({ type: 'reasoning-delta', id, delta: markup });
        controller.enqueue({ type: 'reasoning-end', id });
      };
      const drain = (controller: TransformStreamDefaultController<LanguageModelV4StreamPart>, final: boolean) => {
        while (buffer !== '') {
          if (inside) {
            const end = buffer.indexOf(CLOSE);
            if (end < 0) {
              if (final) emitMarkup(controller, buffer);
              if (final) buffer = '';
              return;
            }
            emitMarkup(controller, buffer.slice(0, end + CLOSE.length));
            buffer = buffer.slice(end + CLOSE.length);
            inside = false;
            continue;
          }
          const start = buffer.indexOf(OPEN);
          if (start >= 0) {
            if (start > 0) controller.enqueue({ type: 'text-delta', id: textId, delta: buffer.slice(0, start) });
            buffer = buffer.slice(start);
            inside = true;
            continue;
          }
          const keep = final ? 0 : partialTagAt(buffer, OPEN);
          const out = buffer.slice(0, buffer.length - keep);
          if (out !== '') controller.enqueue({ type: 'text-delta', id: textId, delta: out });
          buffer = buffer.slice(buffer.length - keep);
          return;
        }
      };
      const transformed = stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === 'text-delta') {
              textId = part.id;
              buffer += part.delta;
              drain(controller, false);
              return;
            }
            if (part.type === 'text-end' || part.type === 'finish') drain(controller, true);
            controller.enqueue(part);
          },
          flush(controller) {
            drain(controller, true);
          },
        }),
      );
      return { stream: transformed, ...rest };
    },
  };
}
