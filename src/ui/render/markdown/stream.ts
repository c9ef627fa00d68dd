import type { Token, Tokens } from 'marked';
import { loadHighlighter } from './highlight.ts';
import { renderBlocks, type BlockContext } from './render-blocks.ts';

/** The blocks of a source, their inline content not parsed yet. */
interface Blocks {
  tokens: Token[];
  /** Parses the inline content of `done` (some of `tokens`), in place: only the blocks that are printed need it. */
  parseInline(done: readonly Token[]): void;
}

interface Lexer {
  /** Blocks with their inline content: what is rendered. */
  lex(source: string): Token[];
  /** Blocks only: enough to tell which blocks are finished, at a fraction of the cost. */
  blocks(source: string): Blocks;
}
let lexerLoading: Promise<Lexer> | undefined;

/** `marked`'s lexer, imported on the first answer of the session (about 12 ms), never before the prompt. */
function loadLexer(): Promise<Lexer> {
  lexerLoading ??= import('marked').then(({ Lexer }) => ({
    lex: (source) => Lexer.lex(source, { gfm: true }),
    blocks: (source) => {
      const lexer = new Lexer({ gfm: true });
      const tokens = lexer.blockTokens(source, []);
      return {
        tokens,
        // The block lexer left a job for each piece of inline content (a paragraph's text, a table
        // cell, a list item's line); the finished blocks' jobs are run, the rest dropped.
        parseInline: (done) => {
          const wanted = inlineListsOf(done);
          for (const job of lexer.inlineQueue) if (wanted.has(job.tokens)) lexer.inlineTokens(job.src, job.tokens);
          lexer.inlineQueue = [];
        },
      };
    },
  }));
  return lexerLoading;
}

/** Every `tokens` list in and under `tokens`: where the block lexer's inline jobs write. */
function inlineListsOf(tokens: readonly Token[]): Set<Token[]> {
  const lists = new Set<Token[]>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === 'tokens' && Array.isArray(child)) lists.add(child as Token[]);
      if (typeof child === 'object') visit(child);
    }
  };
  visit(tokens);
  return lists;
}

/** A code fence opening, and the language named on it: the highlighter starts loading as soon as one arrives. */
const FENCE_START = /^ {0,3}(`{3,}|~{3,})[ \t]*([\w+#-]+)?/;
/** The opening fence of a code block at the start of the block being written (after blank lines). */
const OPEN_FENCE = /^\n*( {0,3})(?:(`{3,})[^`\n]*|(~{3,})[^\n]*)\n/;
/**
 * Lines that cannot finish a block of each kind still open: they can only go on with it (blank
 * lines and items in a list, rows in a table, plain text in a paragraph, `>` lines in a quote).
 * Lexing waits at them; a line that is none of these lexes the whole block again, so guessing
 * wrong only prints a block one line later.
 */
const CONTINUES: Partial<Record<string, RegExp>> = {
  list: /^(?:\s*$|\s|(?:[-*+]|\d{1,9}[.)])(?:\s|$))/,
  table: /^[^\n]*\|/,
  paragraph: /^(?: {4,}\S| {0,3}[^\s#>`~*+\-_=<|\d])[^|]*$/,
  blockquote: /^ {0,3}>/,
};
/** Up to this size the block being written is lexed again at each line that ends; past it, only as it grows by an eighth. */
const ALWAYS_LEX = 4 * 1024;

/**
 * An answer's markdown as it streams: each block is rendered once it is complete, and the block
 * still being written stays as plain text (`pending`) for the caller to show in the live rows.
 * Nothing rendered is ever rendered again. Text must already be sanitised.
 *
 * The work per chunk does not grow with the block being written: only the lines a chunk ends are
 * looked at. A block can only be finished by a line that ends, so the lexer runs then — inside an
 * open code fence only at a line that could close it, and in a long list, table or paragraph only
 * each time it has grown by an eighth (its rendering waits that much at most), so lexing it again
 * and again costs a constant times its length.
 */
export class MarkdownStream {
  private source = '';
  /** The last block rendered, for the blank line between it and the next. */
  private previous: Token | undefined;
  /** The line being written: `source` after its last newline. */
  private line = '';
  /** The code fence the block being written opened (undefined: not known yet; null: it is no code block). */
  private fence: string | null | undefined;
  /** The length of `source` when it was last lexed. */
  private lexedAt = 0;
  /** The kind of block being written, as the lexer last saw it. */
  private open: string | undefined;

  constructor(private readonly context: () => Omit<BlockContext, 'highlight'>) {}

  /** Adds streamed text; resolves with the rendered lines of the blocks it completed. */
  async push(text: string): Promise<string[]> {
    this.source += text;
    const newline = text.lastIndexOf('\n');
    if (newline < 0) {
      this.line += text;
      // A fence being typed out: the highlighter loads before the line ends (a long line is no fence).
      if (this.line.length < 80) this.watchForFence(this.line);
      return [];
    }
    const ended = (this.line + text.slice(0, newline)).split('\n');
    this.line = text.slice(newline + 1);
    for (const line of [...ended, this.line]) if (line.length < 80) this.watchForFence(line);
    if (!this.mayHaveFinished(ended)) return [];
    const lexer = await loadLexer();
    const blocks = lexer.blocks(this.source);
    const tokens = blocks.tokens;
    this.lexedAt = this.source.length;
    const complete = completeCount(tokens);
    this.open = complete < tokens.length ? tokens.findLast((token) => token.type !== 'space')?.type : undefined;
    if (complete === 0) return [];
    const done = tokens.slice(0, complete);
    const consumed = done.map((token) => token.raw).join('');
    // The lexer's raw pieces add up to the source; if some never do, wait for the end rather than lose text.
    if (!this.source.startsWith(consumed)) return [];
    this.source = this.source.slice(consumed.length);
    this.line = this.source.slice(this.source.lastIndexOf('\n') + 1);
    this.fence = undefined;
    this.lexedAt = this.source.length;
    // Only the finished blocks get their inline content parsed, from the same lexing.
    blocks.parseInline(done);
    return this.render(done);
  }

  private watchForFence(line: string): void {
    const fence = FENCE_START.exec(line);
    if (fence) void loadHighlighter(fence[2] ? [fence[2]] : []);
  }

  /** Whether the lines just ended (`source` holds them) may have finished a block: if not, lexing can wait. */
  private mayHaveFinished(ended: readonly string[]): boolean {
    if (this.fence === undefined) {
      const open = OPEN_FENCE.exec(this.source);
      // Until its first line has ended, the block could still become anything.
      this.fence = open ? (open[2] ?? open[3]!) : this.source.replace(/^\n+/, '').includes('\n') ? null : undefined;
      // The lines ended with the opening fence itself close nothing: only those after it can.
      if (open) ended = this.source.slice(open[0].length).split('\n').slice(0, -1);
    }
    if (this.fence) {
      const closing = new RegExp(`^ {0,3}${this.fence[0]}{${this.fence.length},}\\s*$`);
      return ended.some((line) => closing.test(line));
    }
    const continues = this.open === undefined ? undefined : CONTINUES[this.open];
    if (continues && ended.every((line) => continues.test(line))) return false;
    return this.source.length <= ALWAYS_LEX || this.source.length - this.lexedAt >= this.source.length / 8;
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
    const tokens = (await loadLexer()).lex(this.source);
    this.source = '';
    this.open = undefined;
    this.line = '';
    this.fence = undefined;
    this.lexedAt = 0;
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
