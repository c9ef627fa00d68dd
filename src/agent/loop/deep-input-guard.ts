import type { LanguageModel } from 'ai';
import { withPartFilters, type PartFilter } from '../../providers/part-filters.ts';

/** Real tool arguments nest a few levels; past this, the call is answered as invalid instead of parsed. */
const MAX_TOOL_INPUT_DEPTH = 64;

/** Whether JSON text nests arrays/objects deeper than `limit` (a linear scan; strings are skipped). */
function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
    } else if (character === '"') {
      inString = true;
    } else if (character === '[' || character === '{') {
      if (++depth > limit) return true;
    } else if (character === ']' || character === '}') {
      depth--;
    }
  }
  return false;
}

const deepInputFilter = (): PartFilter => ({
  transform(part, emit) {
    if (part.type === 'tool-call' && jsonNestsDeeperThan(part.input, MAX_TOOL_INPUT_DEPTH)) {
      // Never parsed, so no copy of it can overflow the stack later; the schema check tells the model.
      emit({ ...part, input: JSON.stringify({ rejected: `arguments nested deeper than ${MAX_TOOL_INPUT_DEPTH} levels` }) });
    } else {
      emit(part);
    }
  },
});

/**
 * The model with a guard on its tool calls: arguments nested deeper than 64 levels (a 10,000-level
 * array) are replaced by a small object the tool's schema rejects, so the model hears its call was
 * invalid and nothing downstream (the SDK's own copies, the history, the session) meets the depth.
 */
export function guardDeepToolInput(model: LanguageModel): LanguageModel {
  return typeof model === 'string' ? model : withPartFilters(model, [deepInputFilter]);
}
