/**
 * Counts as people read them: "1,234", and "1,234 lines" with the noun.
 *
 * Grouped here rather than by `toLocaleString('en-US')`, whose first call sets up ICU's number
 * formatting: ~12 ms of CPU in every process that showed a turn's token count or a tool's line count.
 */

/** An integer with its thousands grouped by commas ("12,345", "-1,000"); any other number as `toLocaleString('en-US')` writes it. */
export function digits(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** "1 line", "1,234 lines": a count with its noun, as tool results say it. */
export function countOf(count: number, noun: string): string {
  return `${digits(count)} ${noun}${count === 1 ? '' : 's'}`;
}
