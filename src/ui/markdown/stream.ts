import type { Token, Tokens } from 'marked';
import { loadHighlighter } from './highlight.ts';
import { renderBlocks, type BlockContext } from './render-blocks.ts';

type Lex = (source: string) => Token[];
let lexerLoading: Promise<Lex> | undefined;

/** `marked`'s lexer, imported on the first answer of the session (about 12 ms), never before the prompt. */
export function loadLexer(): Promise<Lex> {
  lexerLoading ??= import('marked').then(({ Lexer }) => (source: string) => Lexer.lex(source, { gfm: true }));
  return lexerLoading;
}

/** A code fence opening, and the language named on it: the highlighter starts loading as soon as one arrives. */
const FENCE_START = /^ {0,3}(`{3,}|~{3,})[ \t]*([\w+#-]+)?/m;

/**
 * An answer's markdown as it streams: each block is rendered once it is complete, and the block
 * still being written stays as plain text (`pending`) for the caller to show in the live rows.
 * Nothing rendered is ever rendered again. Text must already be sanitised.
 */
export class MarkdownStream {
  private source = '';
  /** The last block rendered, for the blank line between it and the next. */
  private previous: Token | undefined;

  constructor(private readonly context: () => Omit<BlockContext, 'highlight'>) {}

  /** Adds streamed text; resolves with the rendered lines of the blocks it completed. */
  async push(text: string): Promise<string[]> {
    this.source += text;
    const fence = FENCE_START.exec(this.source);
    if (fence) void loadHighlighter(fence[2] ? [fence[2]] : []);
    if (!this.source.includes('\n')) return [];
    const lex = await loadLexer();
    const tokens = lex(this.source);
    const complete = completeCount(tokens);
    if (complete === 0) return [];
    const done = tokens.slice(0, complete);
    const consumed = done.map((token) => token.raw).join('');
    // The lexer's raw pieces add up to the source; if some never do, wait for the end rather than lose text.
    if (!this.source.startsWith(consumed)) return [];
    this.source = this.source.slice(consumed.length);
    return this.render(done);
  }

  /** The block still being written, as it came. */
  get pending(): string {
    return this.source;
  }

  /** The end of the answer: whatever is left is rendered as it stands. */
  async end(): Promise<string[]> {
    if (this.source.trim() === '') {
      this.source = '';
      return [];
    }
    const lex = await loadLexer();
    const tokens = lex(this.source);
    this.source = '';
    const lines = await this.render(tokens);
    while (lines.at(-1) === '') lines.pop();
    return lines;
  }

  private async render(tokens: Token[]): Promise<string[]> {
    const languages = tokens.flatMap(codeLanguages);
    const highlight = languages.length > 0 ? await loadHighlighter(languages) : undefined;
    const lines = renderBlocks(tokens, { ...this.context(), highlight }, 0, this.previous);
    this.previous = tokens.at(-1);
    return lines;
  }
}

/** The languages of the code blocks in a token and its children. */
function codeLanguages(token: Token): string[] {
  if (token.type === 'code') return [((token as Tokens.Code).lang ?? '').trim().split(/\s+/)[0] ?? ''].filter(Boolean);
  const children = [...('tokens' in token && Array.isArray(token.tokens) ? token.tokens : []), ...('items' in token ? (token.items as Token[]) : [])];
  return children.flatMap(codeLanguages);
}

/**
 * How many leading tokens are finished. Every block but the last one is; the last is finished
 * too when nothing more can join it: a heading or rule whose line ended, a closed code fence, or
 * a paragraph, table or quote followed by a blank line. A list stays open across blank lines.
 */
function completeCount(tokens: readonly Token[]): number {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]!.type === 'space') last -= 1;
  if (last < 0) return 0;
  const token = tokens[last]!;
  const trailingBlank = last < tokens.length - 1;
  if (isClosed(token) || (trailingBlank && token.type !== 'list')) return tokens.length;
  return last;
}

function isClosed(token: Token): boolean {
  if (!token.raw.endsWith('\n')) return false;
  if (token.type === 'heading' || token.type === 'hr') return true;
  if (token.type !== 'code') return false;
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(token.raw)?.[1];
  if (!fence) return false;
  const lines = token.raw.slice(0, -1).split('\n');
  return lines.length > 1 && new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(lines.at(-1)!);
}
