import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChalkInstance } from 'chalk';
import type { Config } from '../../config/config.ts';
import { sandboxBannerLine } from '../../sandbox/describe-sandbox.ts';
import { displayWidth, wrapStyled } from '../../shared/text/display-width.ts';
import { keyHostNote } from './key-host-note.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

/** How the banner's lists are joined, and where they may break. */
const SEPARATOR = ' · ';

/**
 * The lines printed before the first prompt: who answers, how to reach a real model when none is
 * set, what to try, where commands run. With `columns` (a terminal) each line is wrapped between
 * words or between the items of a ` · ` list, never inside a word, and a wrapped line's rest is
 * indented by two columns; without it (a pipe) lines stay whole.
 */
export function bannerLines(config: Config, version: string, colour: ChalkInstance, columns?: number): string[] {
  const width = columns !== undefined && columns > 0 ? columns : Number.POSITIVE_INFINITY;
  const lines: string[] = [];
  const items = (parts: string[], style: (line: string, first: boolean) => string) =>
    itemRows(parts, width).forEach((row, index) => lines.push(style(row, index === 0)));
  const words = (text: string) => wordRows(text, width).forEach((row) => lines.push(colour.dim(row)));
  // The head's first row starts with the name, in colour; everything else is dimmed.
  const head = (row: string, first: boolean) => (first ? `${colour.bold.green('Sylvan')}${colour.dim(row.slice('Sylvan'.length))}` : colour.dim(row));

  if (config.provider === 'mock') {
    items([`Sylvan v${version}`, 'offline mock model', 'sample weather', ...(config.search?.backend === 'sample' ? ['sample search'] : [])], head);
    words('No API key found. Set DASHSCOPE_API_KEY (Qwen) or OPENAI_API_KEY in .env to talk to a real model.');
    words('A local server (Ollama, vLLM, llama.cpp) needs no key: OPENAI_BASE_URL=http://localhost:11434/v1');
    // A file to read only where there is one: the folder may be any project, or none.
    const fileExample = existsSync(join(config.cwd, 'package.json')) ? '帮我读一下 package.json' : '列出这个文件夹的文件';
    items(['Try: 北京今天天气怎么样？', '(2+3)*4 等于多少？', fileExample, '!ls', '/help'], (row) => colour.dim(row));
  } else {
    const where = config.provider === 'dashscope' ? 'DashScope' : (config.baseURL ?? 'OpenAI-compatible');
    items([`Sylvan v${version}`, sanitizeLine(`${config.model} via ${where}`), '/help for commands', 'Ctrl-C stops an answer'], head);
    const host = keyHostNote(config);
    if (host) words(host);
  }
  const sandbox = config.sandbox && sandboxBannerLine(config.sandbox);
  if (sandbox) words(sanitizeLine(sandbox));
  return lines;
}

/** One more line of the banner (the settings files read), wrapped the same way. */
export function bannerLine(text: string, columns?: number): string[] {
  return wordRows(text, columns !== undefined && columns > 0 ? columns : Number.POSITIVE_INFINITY);
}

/** Items joined by ` · `, a row broken only between items; an item wider than the row is wrapped on its words. */
function itemRows(items: string[], width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const item of items) {
    const joined = row === '' ? item : `${row}${SEPARATOR}${item}`;
    if (displayWidth(joined) <= width || row === '') {
      row = joined;
      continue;
    }
    rows.push(row);
    row = `  ${item}`;
  }
  if (row !== '') rows.push(row);
  return rows.flatMap((line, index) => (displayWidth(line) <= width ? [line] : wordRows(line, width, index > 0)));
}

/** Plain text wrapped at spaces (inside a word only when it is wider than a row); the rows after the first indented by two columns. */
function wordRows(text: string, width: number, indentFirst = false): string[] {
  if (displayWidth(text) <= width) return [text];
  const plain = indentFirst ? text.trimStart() : text;
  const first = wrapStyled(plain, indentFirst ? width - 2 : width)[0] ?? '';
  const rest = plain.slice(first.length).trimStart();
  const others = rest === '' ? [] : wrapStyled(rest, width - 2);
  return [indentFirst ? `  ${first}` : first, ...others.map((row) => `  ${row}`)];
}
