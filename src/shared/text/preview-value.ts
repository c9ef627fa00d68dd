/** Deeper than this, a value is shown as "…": nobody reads the 10,000th level of a nested array. */
const MAX_DEPTH = 8;
/** Entries shown per array or object before "…". */
const MAX_ENTRIES = 20;

/**
 * A JSON-like one-line preview of any value, at most `maxChars` characters (cut with "…"), for the
 * screen only. Walks at most `MAX_DEPTH` levels and `MAX_ENTRIES` entries per level and stops as
 * soon as the budget is spent, so a 10,000-level array, a cycle, a getter that throws or a
 * 100k-character string costs almost nothing. Never throws.
 */
export function previewValue(value: unknown, maxChars: number): string {
  const budget = Math.max(1, Math.floor(maxChars));
  const out = { text: '', full: false };
  try {
    walk(value, 0, out, budget, new Set());
  } catch {
    out.text += '…';
    out.full = true;
  }
  if (out.text.length <= budget && !out.full) return out.text;
  return `${Array.from(out.text).slice(0, budget - 1).join('')}…`;
}

interface Preview {
  text: string;
  /** The budget is spent: nothing more is appended. */
  full: boolean;
}

function append(out: Preview, piece: string, budget: number): void {
  if (out.full) return;
  out.text += piece;
  // One character over the budget is enough to know it must be cut.
  if (out.text.length > budget) {
    out.text = out.text.slice(0, budget + 1);
    out.full = true;
  }
}

function walk(value: unknown, depth: number, out: Preview, budget: number, seen: Set<object>): void {
  if (out.full) return;
  if (typeof value === 'string') return append(out, JSON.stringify(value.length > budget ? value.slice(0, budget + 1) : value), budget);
  if (typeof value === 'bigint') return append(out, `${value}n`, budget);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return append(out, String(value === undefined ? 'undefined' : typeof value), budget);
  if (value === null || typeof value !== 'object') return append(out, String(value), budget);
  if (seen.has(value)) return append(out, '[circular]', budget);
  const isArray = Array.isArray(value);
  if (depth >= MAX_DEPTH) return append(out, isArray ? '[…]' : '{…}', budget);
  seen.add(value);
  append(out, isArray ? '[' : '{', budget);
  const keys = isArray ? undefined : Object.keys(value);
  const length = isArray ? value.length : (keys as string[]).length;
  for (let index = 0; index < length && !out.full; index++) {
    if (index > 0) append(out, ',', budget);
    if (index >= MAX_ENTRIES) {
      append(out, '…', budget);
      break;
    }
    if (isArray) {
      walk(value[index], depth + 1, out, budget, seen);
    } else {
      const key = (keys as string[])[index] as string;
      append(out, `${JSON.stringify(key.length > budget ? key.slice(0, budget + 1) : key)}:`, budget);
      walk((value as Record<string, unknown>)[key], depth + 1, out, budget, seen);
    }
  }
  append(out, isArray ? ']' : '}', budget);
  seen.delete(value);
}
