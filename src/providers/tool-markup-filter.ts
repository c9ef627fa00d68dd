import type { EmitPart, PartFilter } from './part-filters.ts';
import { partialTagAt } from './partial-tag.ts';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

/**
 * Moves `<tool_call>…</tool_call>` markup that a server leaked into the answer (llama.cpp and
 * vLLM without a tool parser) out of the text and into the reasoning, tags kept, so it is never
 * shown as the answer and the step can report that the model wrote a call it could not make.
 */
export function toolMarkupFilter(): PartFilter {
  let buffer = '';
  let inside = false;
  let textId = '';
  let reasoningCount = 0;
  const emitMarkup = (emit: EmitPart, markup: string) => {
    const id = `tool-markup-${reasoningCount++}`;
    emit({ type: 'reasoning-start', id });
    emit({ type: 'reasoning-delta', id, delta: markup });
    emit({ type: 'reasoning-end', id });
  };
  const drain = (emit: EmitPart, final: boolean) => {
    while (buffer !== '') {
      if (inside) {
        const end = buffer.indexOf(CLOSE);
        if (end < 0) {
          if (final) {
            emitMarkup(emit, buffer);
            buffer = '';
          }
          return;
        }
        emitMarkup(emit, buffer.slice(0, end + CLOSE.length));
        buffer = buffer.slice(end + CLOSE.length);
        inside = false;
        continue;
      }
      const start = buffer.indexOf(OPEN);
      if (start >= 0) {
        if (start > 0) emit({ type: 'text-delta', id: textId, delta: buffer.slice(0, start) });
        buffer = buffer.slice(start);
        inside = true;
        continue;
      }
      const keep = final ? 0 : partialTagAt(buffer, OPEN);
      const out = buffer.slice(0, buffer.length - keep);
      if (out !== '') emit({ type: 'text-delta', id: textId, delta: out });
      buffer = buffer.slice(buffer.length - keep);
      return;
    }
  };
  return {
    transform(part, emit) {
      if (part.type === 'text-delta') {
        textId = part.id;
        buffer += part.delta;
        drain(emit, false);
        return;
      }
      if (part.type === 'text-end' || part.type === 'finish') drain(emit, true);
      emit(part);
    },
    flush(emit) {
      drain(emit, true);
    },
  };
}
