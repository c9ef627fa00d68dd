import { canonicalJson } from './guards.ts';

/**
 * A call with what a runaway loop varies taken out: argument order, runs of whitespace and every
 * number (a page, an offset, a `sleep 3` that becomes `sleep 4`). Two calls with the same signature
 * are near-identical: the model is asking the same thing again.
 */
export function callSignature(toolName: string, input: unknown): string {
  return `${toolName}\u0000${roughText(canonicalJson(input))}`;
}

/** A result or an error with numbers (timings, counts, line numbers) and whitespace runs left out. */
export function roughText(text: string): string {
  return text
    .replace(/\\[nrt]/g, ' ')
    .replace(/[0-9]+(?:\.[0-9]+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A result as a step's progress is judged: spacing and durations (`(0.3 s)`) aside, a different number is news. */
export function progressText(text: string): string {
  return text
    .replace(/[0-9]+(?:\.[0-9]+)? ?(?:ms|s)\b/g, '#s')
    .replace(/\s+/g, ' ')
    .trim();
}
