import type { ModelMessage, ToolResultPart } from 'ai';
import { countCharacters, estimateToolOutputTokens, isDenseCodePoint, tokensForCounts } from '../../shared/text/token-estimate.ts';
import { digits } from '../../shared/text/count-text.ts';

type ToolResultOutput = ToolResultPart['output'];

/** Room kept for the shortening note itself. */
const NOTE_TOKENS = 24;
/** Below this a shortened result says too little to be worth keeping more than the note. */
export const MIN_SHORTENED_RESULT_TOKENS = 64;

/**
 * Cuts `text` to at most about `maxTokens` tokens (by the same estimate as `estimateTextTokens`),
 * keeping the beginning and appending a note the model can read, e.g.
 * "[… shortened from 52,000 to 8,000 characters to fit the context window]".
 * Returns the text unchanged when it already fits.
 */
function shortenText(text: string, maxTokens: number): string {
  const { dense, other } = countCharacters(text);
  if (tokensForCounts(dense, other) <= maxTokens) return text;
  const keptLength = prefixLengthWithin(text, Math.max(0, maxTokens - NOTE_TOKENS));
  const note = `[… shortened from ${digits(text.length)} to ${digits(keptLength)} characters to fit the context window]`;
  return keptLength === 0 ? note : `${text.slice(0, keptLength)}\n${note}`;
}

/** The longest prefix length (in UTF-16 units, never splitting a surrogate pair) within `maxTokens`. */
function prefixLengthWithin(text: string, maxTokens: number): number {
  let dense = 0;
  let other = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.codePointAt(index) ?? 0;
    const width = code > 0xffff ? 2 : 1;
    const isDense = isDenseCodePoint(code);
    const nextDense = dense + (isDense ? 1 : 0);
    const nextOther = other + (isDense ? 0 : 1);
    if (tokensForCounts(nextDense, nextOther) > maxTokens) break;
    dense = nextDense;
    other = nextOther;
    index += width;
  }
  return index;
}

/** Shortens one tool output to about `maxTokens`; JSON outputs become text (their JSON, shortened). */
function shortenOutput(output: ToolResultOutput, maxTokens: number): ToolResultOutput {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return { ...output, value: shortenText(output.value, maxTokens) };
    case 'json':
    case 'error-json': {
      const type = output.type === 'json' ? 'text' : 'error-text';
      return { type, value: shortenText(jsonText(output.value), maxTokens) };
    }
    case 'content': {
      const total = estimateToolOutputTokens(output);
      let changed = false;
      const value = output.value.map((item) => {
        if (item.type !== 'text') return item;
        const share = Math.floor((maxTokens * estimateToolOutputTokens({ type: 'text', value: item.text })) / total);
        const text = shortenText(item.text, Math.max(MIN_SHORTENED_RESULT_TOKENS, share));
        if (text === item.text) return item;
        changed = true;
        return { ...item, text };
      });
      return changed ? { ...output, value } : output;
    }
    default:
      return output;
  }
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

const cappedCache = new WeakMap<ModelMessage, { cap: number; message: ModelMessage; shortened: number }>();

/**
 * Returns `message` with every tool result whose output is over `maxTokens` shortened (a new message
 * object; the input is never mutated), and how many results were shortened. Non-tool messages and
 * messages with nothing to shorten come back as they are. The last answer per message is cached, so
 * fitting the same history again returns the same objects.
 */
export function capToolResults(message: ModelMessage, maxTokens: number): { message: ModelMessage; shortened: number } {
  if (message.role !== 'tool' || !Array.isArray(message.content)) return { message, shortened: 0 };
  const cached = cappedCache.get(message);
  if (cached?.cap === maxTokens) return cached;
  let shortened = 0;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-result' || estimateToolOutputTokens(part.output) <= maxTokens) return part;
    const output = shortenOutput(part.output, maxTokens);
    if (output === part.output) return part;
    shortened++;
    return { ...part, output };
  });
  const result = { cap: maxTokens, message: shortened === 0 ? message : { ...message, content }, shortened };
  cappedCache.set(message, result);
  return result;
}
