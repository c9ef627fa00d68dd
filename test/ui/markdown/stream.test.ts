import assert from 'node:assert/strict';
import { Chalk } from 'chalk';
import { describe, it } from 'node:test';
import { displayWidth, stripStyle } from '../../../src/shared/text/display-width.ts';
import { MarkdownStream } from '../../../src/ui/render/markdown/stream.ts';
import { supportsHyperlinks } from '../../../src/ui/render/markdown/render-blocks.ts';

const plain = new Chalk({ level: 0 });
const coloured = new Chalk({ level: 1 });

function stream(options: { width?: number; hyperlinks?: boolean; colour?: typeof plain } = {}) {
  return new MarkdownStream(() => ({ colour: options.colour ?? plain, width: options.width ?? 80, hyperlinks: options.hyperlinks ?? false }));
}

/** Streams `source` in pieces of `size` characters; returns what each push printed, then the end. */
async function streamed(source: string, size = 3, options: Parameters<typeof stream>[0] = {}) {
  const markdown = stream(options);
  const pushes: string[][] = [];
  const characters = Array.from(source);
  for (let at = 0; at < characters.length; at += size) pushes.push(await markdown.push(characters.slice(at, at + size).join('')));
  const end = await markdown.end();
  return { pushes, end, all: [...pushes.flat(), ...end] };
}

describe('MarkdownStream', { timeout: 10_000 }, () => {
  it('renders each block once, when it is complete, and holds the block in progress as plain text', async () => {
    const markdown = stream();
    assert.deepEqual(await markdown.push('# Head'), []);
    assert.equal(markdown.pending, '# Head');
    assert.deepEqual(await markdown.push('ing\nSome **bo'), ['# Heading'], 'a heading is complete once its line ends');
    assert.equal(markdown.pending, 'Some **bo');
    assert.deepEqual(await markdown.push('ld** words'), []);
    assert.deepEqual(await markdown.push('\n\n- a'), ['Some bold words', ''], 'a paragraph is complete at a blank line');
    assert.deepEqual(await markdown.end(), ['• a']);
  });

  it('renders the same whatever the chunking', async () => {
    const source = '## Plan\n\n1. first\n2. second\n   - nested\n\n> quoted\n\n---\ndone';
    const whole = (await streamed(source, 1000)).all;
    for (const size of [1, 2, 5, 13]) assert.deepEqual((await streamed(source, size)).all, whole, `chunks of ${size}`);
    assert.deepEqual(whole, ['## Plan', '', '1. first', '2. second', '   ◦ nested', '', '│ quoted', '', '─'.repeat(80), 'done']);
  });

  it('keeps a code block open until its fence closes, then shows it framed with its language', async () => {
    const markdown = stream();
    assert.deepEqual(await markdown.push('```python\nprint("hi")\n'), []);
    assert.equal(markdown.pending, '```python\nprint("hi")\n');
    assert.deepEqual(await markdown.push('```\n'), ['╭─ python', '│ print("hi")', '╰─']);
  });

  it('keeps the indentation of code, also when highlighted', async () => {
    const source = '```json\n{\n  "name": "sylvan",\n  "bin": {\n    "sylvan": "bin/sylvan.js"\n  }\n}\n```\n';
    const expected = ['╭─ json', '│ {', '│   "name": "sylvan",', '│   "bin": {', '│     "sylvan": "bin/sylvan.js"', '│   }', '│ }', '╰─'];
    assert.deepEqual((await streamed(source, 5)).all, expected);
    assert.deepEqual((await streamed(source, 5, { colour: coloured })).all.map(stripStyle), expected);
  });

  it('highlights code with colour', async () => {
    const { all } = await streamed('```js\nconst x = "s"; // c\n```\n', 4, { colour: coloured });
    const line = all[1]!;
    assert.match(line, /\u001b\[35mconst\u001b\[39m/, 'keyword coloured');
    assert.match(line, /\u001b\[32m"s"\u001b\[39m/, 'string coloured');
    assert.equal(stripStyle(line), '│ const x = "s"; // c');
  });

  it('draws a table with box borders, columns aligned by display width (CJK counts two)', async () => {
    const { all } = await streamed('| 城市 | temp |\n| --- | ---: |\n| 北京 | 12 |\n| Shanghai | 8 |\n\n', 4);
    assert.deepEqual(all, [
      '┌──────────┬──────┐',
      '│ 城市     │ temp │',
      '├──────────┼──────┤',
      '│ 北京     │   12 │',
      '│ Shanghai │    8 │',
      '└──────────┴──────┘',
      '',
    ]);
  });

  it('wraps table cells on a narrow terminal, keeping every row within the width', async () => {
    const { all } = await streamed('| 名字 | 说明 |\n| --- | --- |\n| 甲 | 这是一段很长很长的中文说明，需要换行才能放得下 |\n\n', 7, { width: 30 });
    const rows = all.filter((line) => line !== '');
    assert.ok(rows.length > 6, rows.join('\n'));
    assert.deepEqual(new Set(rows.map(displayWidth)), new Set([30]), rows.join('\n'));
    assert.equal(rows.map((row) => row.split('│')[2]?.trim() ?? '').join(''), '说明这是一段很长很长的中文说明，需要换行才能放得下');
  });

  it('shows links as text (url), or as OSC 8 hyperlinks where the terminal supports them', async () => {
    assert.deepEqual((await streamed('See [docs](https://x.dev/a).\n\n')).all, ['See docs (https://x.dev/a).', '']);
    const [line] = (await streamed('See [docs](https://x.dev/a).\n\n', 3, { hyperlinks: true })).all;
    assert.equal(line, 'See \u001b]8;;https://x.dev/a\u001b\\docs\u001b]8;;\u001b\\.');
    assert.equal(supportsHyperlinks({ TERM_PROGRAM: 'iTerm.app' }), true);
    assert.equal(supportsHyperlinks({ TERM_PROGRAM: 'iTerm.app', TMUX: '/tmp/tmux' }), false);
    assert.equal(supportsHyperlinks({ TERM: 'xterm' }), false);
    assert.equal(supportsHyperlinks({ TERM: 'xterm', FORCE_HYPERLINK: '1' }), true);
  });

  it('styles bold, italic and inline code with colour, and keeps # and backticks without it', async () => {
    const [heading, , body] = (await streamed('# T\n\n**b** *i* `c`\n', 2, { colour: coloured })).all;
    assert.match(heading!, /\u001b\[1m/);
    assert.doesNotMatch(heading!, /#/);
    assert.equal(body, '\u001b[1mb\u001b[22m \u001b[3mi\u001b[23m \u001b[36mc\u001b[39m');
    assert.deepEqual((await streamed('# T\n\n**b** `c`\n')).all, ['# T', '', 'b `c`']);
  });

  it('wraps long paragraphs at spaces within the width, and CJK anywhere', async () => {
    const { all } = await streamed(`${'word '.repeat(30)}\n\n${'中'.repeat(50)}\n\n`, 9, { width: 40 });
    for (const line of all) assert.ok(displayWidth(line) <= 40, line);
    assert.equal(all.filter((line) => line.startsWith('中')).join(''), '中'.repeat(50));
  });

  it('prints a code block as soon as a fence closes it (indented up to three spaces); a fence line with a language or another marker is code', async () => {
    const source = '```md\nInside:\n```js\nstill code\n~~~\n  ```\nafter the close\n\n';
    const { pushes, all } = await streamed(source, 4);
    assert.deepEqual(all, ['╭─ md', '│ Inside:', '│ ```js', '│ still code', '│ ~~~', '╰─', 'after the close', '']);
    assert.deepEqual(pushes.flat().slice(0, 6), all.slice(0, 6), 'the block is printed as soon as its fence closes');
  });

  it('prints a long list or table soon after it ends, though it is not lexed again at every line', async () => {
    for (const long of ['- an item of a long list, with some words in it\n'.repeat(150), `| a | b |\n| - | - |\n${'| cell | 東京 |\n'.repeat(400)}`]) {
      const after = `${'A paragraph after it, long enough to count. '.repeat(3)}\n\n`.repeat(Math.ceil(long.length / 8 / 135) + 1);
      const markdown = stream();
      const printed: string[] = [];
      const source = `${long}\nDone.\n\n${after}`;
      for (let at = 0; at < source.length; at += 20) printed.push(...(await markdown.push(source.slice(at, at + 20))));
      assert.ok(printed.includes('Done.'), `printed before the end: ${printed.length} lines`);
      assert.deepEqual([...printed, ...(await markdown.end())], (await streamed(source, source.length)).all, 'as if it came whole');
    }
  });

  it('renders a long answer with every kind of block the same in small chunks as whole', async () => {
    const section = (index: number) =>
      [
        `## Part ${index}`,
        `Text with **bold** and a [link](https://x.dev/${index}),`,
        'carried on over a second line.',
        '- an item',
        '  - nested',
        '* another list',
        '',
        '1. first',
        '2. second',
        '',
        'After the list.',
        '| a | 東京 |',
        '| - | - |',
        `| ${index} | x |`,
        '> quoted',
        '> more',
        '',
        '```',
        `code ${index}`,
        '```',
        '---',
        '',
      ].join('\n');
    const source = Array.from({ length: 40 }, (_, index) => section(index)).join('\n');
    const whole = (await streamed(source, source.length)).all;
    for (const size of [7, 20]) assert.deepEqual((await streamed(source, size)).all, whole, `chunks of ${size}`);
  });
});
