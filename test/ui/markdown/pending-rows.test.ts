import assert from 'node:assert/strict';
import { Chalk } from 'chalk';
import { describe, it } from 'node:test';
import { wrapStyled } from '../../../src/shared/text/display-width.ts';
import { pendingRows } from '../../../src/ui/render/markdown/pending-rows.ts';

const colour = new Chalk({ level: 1 });

/** Every row of the block being written, wrapped whole: what the last rows must match. */
function allRows(pending: string, width: number): string[] {
  const fence = /^\n*( {0,3})(`{3,}|~{3,})[ \t]*([^\n`]*)(?:\n|$)/.exec(pending);
  if (!fence) return pending.split('\n').flatMap((line) => wrapStyled(line, width, { keepIndent: true }));
  const language = fence[3]!.trim().split(/\s+/)[0] ?? '';
  const lines = pending.slice(fence[0].length).split('\n').map((line) => line.replace(new RegExp(`^ {0,${fence[1]!.length}}`), ''));
  if (lines.at(-1) === '') lines.pop();
  return [
    colour.dim(`╭─${language ? ` ${language}` : ''}`),
    ...lines.flatMap((line) => wrapStyled(line, Math.max(10, width - 2), { keepIndent: true }).map((part) => colour.dim('│ ') + part)),
  ];
}

describe('the rows of the block being written', () => {
  it('are the last rows of the whole block, though only its last lines are wrapped', () => {
    const code = (count: number) => Array.from({ length: count }, (_, index) => `  line ${index} ${'word '.repeat(index % 9)}東京`).join('\n');
    const blocks = [
      '',
      'one line being written',
      'a paragraph\n\n',
      '\n\n```ts\n',
      '```ts\nconst a = 1;\n',
      `\`\`\`python\n${code(5)}`,
      `  ~~~\n${code(11)}\n`,
      `\`\`\`\n${code(12)}`,
      `\`\`\`sh\n${code(13)}\n`,
      `\`\`\`sh\n${code(40)}\n`,
      code(3),
      code(12),
      `${code(30)}\n`,
      `- a list\n${'  - with a long item that wraps over more than one row of the terminal\n'.repeat(20)}`,
    ];
    for (const block of blocks) {
      for (const width of [20, 60, 119]) {
        for (const maxRows of [1, 12]) {
          assert.deepEqual(pendingRows(block, width, colour, maxRows), allRows(block, width).slice(-maxRows), `${JSON.stringify(block.slice(0, 30))} at ${width} columns, ${maxRows} rows`);
        }
      }
    }
  });
});
