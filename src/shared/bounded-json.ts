/** Past this depth a value is replaced by a note; real tool arguments are never this deep. */
const MAX_DEPTH = 64;
const TOO_DEEP = '[nested too deep to keep]';

const isContainer = (value: unknown): value is object =>
  Array.isArray(value) || (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype);

/** Whether arrays and plain objects nest deeper than `maxDepth`; iterative, so any depth is safe to ask about. */
export function nestsDeeperThan(value: unknown, maxDepth = MAX_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (!isContainer(current)) continue;
    if (depth >= maxDepth) return true;
    for (const entry of Object.values(current)) if (isContainer(entry)) stack.push([entry, depth + 1]);
  }
  return false;
}

/**
 * A copy of `value` whose arrays and plain objects past `maxDepth` levels are replaced by a note;
 * other objects (bytes, dates) are kept as they are. Recursion stops at `maxDepth`.
 */
export function boundDepth(value: unknown, maxDepth = MAX_DEPTH): unknown {
  if (!isContainer(value)) return value;
  if (maxDepth <= 0) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((entry) => boundDepth(entry, maxDepth - 1));
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) copy[key] = boundDepth(entry, maxDepth - 1);
  return copy;
}

/**
 * `JSON.stringify`, except that a value nested too deep for it (a model's 10,000-level array)
 * is written with its deepest levels replaced by a note instead of throwing "Maximum call stack
 * size exceeded". Still throws for what JSON cannot hold at all (a BigInt).
 */
export function stringifyBounded(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return JSON.stringify(boundDepth(value)) ?? 'null';
  }
}
