/** "1 line", "1,234 lines": a count with its noun, as tool results say it. */
export function countOf(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}
