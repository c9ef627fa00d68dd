/** The length of the longest suffix of `text` that could start `tag`: held back until the next chunk says whether it does. */
export function partialTagAt(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(-length))) return length;
  }
  return 0;
}
