import type { ChalkInstance } from 'chalk';
import type { Token, Tokens } from 'marked';
import { wrapStyled } from '../../../shared/text/display-width.ts';
import type { Highlighter } from './highlight.ts';
import { renderTable } from './table.ts';

export interface BlockContext {
  colour: ChalkInstance;
  /** Columns to fill. */
  width: number;
  /** OSC 8 hyperlinks; otherwise a link is shown as `text (url)`. */
  hyperlinks: boolean;
  /** Loaded when the answer has a code block. */
  highlight?: Highlighter;
}

const BULLETS = ['•', '◦', '▪'];

/**
 * Lines of terminal text for complete markdown blocks from `marked`'s lexer. The text in them was
 * sanitised before lexing; this only adds Sylvan's styling. Blank lines between blocks are kept,
 * runs of them squeezed to one.
 */
export function renderBlocks(tokens: readonly Token[], context: BlockContext, depth = 0, before?: Token): string[] {
  const lines: string[] = [];
  let previous = before;
  for (const token of tokens) {
    if (token.type === 'space') {
      const newlines = (token.raw.match(/\n/g)?.length ?? 0) + (previous?.raw.endsWith('\n') ? 1 : 0);
      const afterText = lines.length > 0 ? lines.at(-1) !== '' : previous !== undefined && previous.type !== 'space';
      if (newlines >= 2 && afterText) lines.push('');
    } else {
      lines.push(...renderBlock(token, context, depth));
    }
    previous = token;
  }
  return lines;
}

function renderBlock(token: Token, context: BlockContext, depth: number): string[] {
  const { colour, width } = context;
  switch (token.type) {
    case 'heading': {
      const { depth: level, tokens } = token as Tokens.Heading;
      const text = renderInline(tokens, context);
      // Without colour the markers are the only sign of a heading: keep them.
      const marker = colour.level === 0 ? `${'#'.repeat(level)} ` : '';
      const style = level === 1 ? colour.bold.underline : level === 2 ? colour.bold : colour.bold.italic;
      return wrapStyled(marker + text, width).map((line) => style(line));
    }
    case 'paragraph':
      return wrapParagraph(renderInline((token as Tokens.Paragraph).tokens, context), width);
    case 'text': {
      const text = token as Tokens.Text;
      return wrapParagraph(text.tokens ? renderInline(text.tokens, context) : text.text, width);
    }
    case 'code':
      return renderCode(token as Tokens.Code, context);
    case 'blockquote': {
      const inner = renderBlocks((token as Tokens.Blockquote).tokens, { ...context, width: Math.max(10, width - 2) }, depth);
      return inner.map((line) => `${colour.dim('│')} ${colour.italic(line)}`);
    }
    case 'list':
      return renderList(token as Tokens.List, context, depth);
    case 'table': {
      const table = token as Tokens.Table;
      return renderTable(
        table.header.map((cell) => renderInline(cell.tokens, context)),
        table.rows.map((row) => row.map((cell) => renderInline(cell.tokens, context))),
        table.align,
        width,
        colour,
      );
    }
    case 'hr':
      return [colour.dim('─'.repeat(Math.min(width, 80)))];
    case 'html':
      return wrapParagraph((token as Tokens.HTML).text.replace(/\n$/, ''), width);
    default:
      return 'raw' in token && token.raw.trim() !== '' ? wrapParagraph(token.raw.replace(/\n+$/, ''), width) : [];
  }
}

/** A paragraph keeps the model's line breaks; each line wraps at spaces. */
function wrapParagraph(text: string, width: number): string[] {
  return text.split('\n').flatMap((line) => wrapStyled(line, width));
}

function renderCode(token: Tokens.Code, context: BlockContext): string[] {
  const { colour, width } = context;
  const language = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
  const code = token.text.replace(/\n$/, '');
  const highlighted = language ? context.highlight?.(code, language, colour) : undefined;
  const lines = highlighted ?? code.split('\n');
  const gutter = colour.dim('│ ');
  return [
    colour.dim(`╭─${language ? ` ${language}` : ''}`),
    ...lines.flatMap((line) => wrapStyled(line.replace(/\t/g, '    '), Math.max(10, width - 2), { keepIndent: true }).map((part) => gutter + part)),
    colour.dim('╰─'),
  ];
}

function renderList(list: Tokens.List, context: BlockContext, depth: number): string[] {
  const start = typeof list.start === 'number' ? list.start : 1;
  const markers = list.items.map((item, index) => {
    const box = item.task ? (item.checked ? '☑ ' : '☐ ') : '';
    return `${list.ordered ? `${start + index}.` : BULLETS[depth % BULLETS.length]} ${box}`;
  });
  const indent = Math.max(...markers.map((marker) => marker.length));
  const lines: string[] = [];
  list.items.forEach((item, index) => {
    const content = item.tokens.filter((token) => token.type !== 'checkbox');
    const inner = renderBlocks(content, { ...context, width: Math.max(10, context.width - indent) }, depth + 1);
    inner.forEach((line, lineIndex) => {
      const lead = lineIndex === 0 ? context.colour.dim(markers[index]!.padEnd(indent)) : ' '.repeat(indent);
      lines.push(line === '' ? '' : lead + line);
    });
    if (list.loose && index < list.items.length - 1) lines.push('');
  });
  return lines;
}

/** Styled text of inline tokens: bold, italic, code, links, strike-through. */
function renderInline(tokens: readonly Token[] | undefined, context: BlockContext): string {
  const { colour } = context;
  let out = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        out += colour.bold(renderInline((token as Tokens.Strong).tokens, context));
        break;
      case 'em':
        out += colour.italic(renderInline((token as Tokens.Em).tokens, context));
        break;
      case 'del':
        out += colour.strikethrough(renderInline((token as Tokens.Del).tokens, context));
        break;
      case 'codespan': {
        const code = (token as Tokens.Codespan).text;
        out += colour.level === 0 ? `\`${code}\`` : colour.cyan(code);
        break;
      }
      case 'link':
        out += renderLink(token as Tokens.Link, context);
        break;
      case 'image': {
        const image = token as Tokens.Image;
        out += `${colour.dim('[image')}${image.text ? ` ${image.text}` : ''}${colour.dim(']')} ${colour.dim(`(${image.href})`)}`;
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'escape':
        out += (token as Tokens.Escape).text;
        break;
      case 'text': {
        const text = token as Tokens.Text;
        out += text.tokens ? renderInline(text.tokens, context) : text.text;
        break;
      }
      default:
        out += 'text' in token && typeof token.text === 'string' ? token.text : token.raw;
    }
  }
  return out;
}

function renderLink(link: Tokens.Link, context: BlockContext): string {
  const { colour } = context;
  const text = renderInline(link.tokens, context);
  const href = link.href;
  // The URL was sanitised with the rest of the answer: it holds no ESC or BEL to end the sequence early.
  if (context.hyperlinks && /^(https?|mailto|file):/i.test(href)) return `\u001b]8;;${href}\u001b\\${colour.underline(text)}\u001b]8;;\u001b\\`;
  const plain = link.text;
  if (plain === href || `mailto:${plain}` === href) return colour.underline(text);
  return `${colour.underline(text)} ${colour.dim(`(${href})`)}`;
}

/**
 * Whether this terminal shows OSC 8 hyperlinks (the rest print the escape as text or drop it):
 * known emulators by their own variables, FORCE_HYPERLINK to say so.
 */
export function supportsHyperlinks(environment: NodeJS.ProcessEnv = process.env): boolean {
  const forced = environment.FORCE_HYPERLINK;
  if (forced !== undefined && forced !== '') return !/^(0|false)$/i.test(forced);
  if (environment.TMUX || environment.STY || environment.TERM === 'dumb') return false;
  if (environment.WT_SESSION || environment.KITTY_WINDOW_ID || environment.WEZTERM_EXECUTABLE) return true;
  if (['iTerm.app', 'WezTerm', 'vscode', 'ghostty', 'Hyper'].includes(environment.TERM_PROGRAM ?? '')) return true;
  if (/^xterm-(kitty|ghostty)$/.test(environment.TERM ?? '')) return true;
  return Number(environment.VTE_VERSION ?? 0) >= 5000;
}
