/**
 * JSON with object keys sorted, so `{a:1,b:2}` and `{b:2,a:1}` are the same call. Iterative, so a
 * model's 10,000-level nested arguments cannot overflow the stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const tasks: Array<{ literal: string } | { value: unknown }> = [{ value }];
  while (tasks.length > 0) {
    const task = tasks.pop() as { literal: string } | { value: unknown };
    if ('literal' in task) {
      out.push(task.literal);
      continue;
    }
    const current = task.value;
    const pieces: Array<{ literal: string } | { value: unknown }> = [];
    if (Array.isArray(current)) {
      pieces.push({ literal: '[' });
      current.forEach((entry, index) => pieces.push(...(index > 0 ? [{ literal: ',' }] : []), { value: entry }));
      pieces.push({ literal: ']' });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>)
        .filter(([, entry]) => entry !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      pieces.push({ literal: '{' });
      entries.forEach(([key, entry], index) => pieces.push({ literal: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` }, { value: entry }));
      pieces.push({ literal: '}' });
    } else {
      out.push(JSON.stringify(current) ?? 'null');
      continue;
    }
    for (let index = pieces.length - 1; index >= 0; index--) tasks.push(pieces[index] as { literal: string } | { value: unknown });
  }
  return out.join('');
}

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
