/** `$ARGUMENTS`, or `$1` … `$9`. */
const PLACEHOLDER = /\$(ARGUMENTS|[1-9])/g;

/**
 * What follows the command name, as words: split at white space, a "double-quoted" or
 * 'single-quoted' stretch kept as one word (without its quotes).
 */
export function splitArguments(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

/** Whether `template` takes the arguments anywhere. */
export function takesArguments(template: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(template);
}

/**
 * `template` with `$ARGUMENTS` replaced by the whole argument text and `$1` … `$9` by its words
 * (an absent word is empty). One pass: placeholders inside the arguments stay as typed.
 */
export function substituteArguments(template: string, argumentText: string): string {
  const whole = argumentText.trim();
  const words = splitArguments(whole);
  return template.replace(PLACEHOLDER, (_match, which: string) => (which === 'ARGUMENTS' ? whole : (words[Number(which) - 1] ?? '')));
}
