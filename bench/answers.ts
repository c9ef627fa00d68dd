/** Answers of a given size for the streaming bench, the same every run; each ends with `end` on a line of its own. */

/** One fenced TypeScript block of about `bytes`, as a model writing a whole file into its answer does. */
export function codeBlockAnswer(bytes: number, end: string): string {
  const lines = ['Here is the file:', '', '```ts'];
  let size = 0;
  for (let index = 0; size < bytes; index++) {
    const line =
      index % 7 === 0
        ? `export function step${index}(input: number): number {`
        : index % 7 === 6
          ? '}'
          : `  const value${index} = compute(input, ${index}, 'a string of some length'); // note ${index}`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push('```', '', end, '');
  return lines.join('\n');
}

/** Ordinary markdown of about `bytes`: headings, paragraphs, lists, a table now and then (some CJK), short code. */
export function ordinaryMarkdown(bytes: number, end: string): string {
  const parts: string[] = [];
  let size = 0;
  for (let section = 0; size < bytes; section++) {
    const part = [
      `## Section ${section}: what changes`,
      '',
      `The **renderer** keeps the \`pending\` block apart from what is finished, so section ${section} is drawn once and never again. ` +
        'A paragraph of ordinary prose wraps at the width of the terminal, with a [link](https://example.com/docs) and some *emphasis*.',
      '',
      `- the first point of section ${section}`,
      '- a second point with `inline code`',
      '  - a nested point under it',
      '- a last point',
      '',
      ...(section % 4 === 0
        ? ['| name | 名前 | value |', '| --- | --- | ---: |', `| alpha | 東京 | ${section} |`, `| beta | 大阪 | ${section * 2} |`, '']
        : []),
      ...(section % 3 === 0 ? ['```js', `const total = items.reduce((sum, item) => sum + item.size, ${section});`, 'console.log(total);', '```', ''] : []),
    ].join('\n');
    parts.push(part);
    size += part.length + 1;
  }
  parts.push(end, '');
  return parts.join('\n');
}
