import type { ChalkInstance } from 'chalk';

/** Styled lines of `code`, or undefined when the language is not one we highlight. */
export type Highlighter = (code: string, language: string, colour: ChalkInstance) => string[] | undefined;

/** The languages a chat answer shows most; each is a separate small module of highlight.js. */
const LANGUAGES = [
  'bash',
  'c',
  'cpp',
  'css',
  'diff',
  'go',
  'java',
  'javascript',
  'json',
  'markdown',
  'python',
  'rust',
  'sql',
  'typescript',
  'xml',
  'yaml',
] as const;

/** The part of highlight.js's API used here. */
interface HighlightJs {
  registerLanguage(name: string, language: unknown): void;
  getLanguage(name: string): unknown;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

let loading: Promise<Highlighter> | undefined;

/**
 * highlight.js core with a few languages, imported on the first code block of the session
 * (about 25 ms), never before the prompt. Later calls share the same load.
 */
export function loadHighlighter(): Promise<Highlighter> {
  loading ??= (async () => {
    // Named through a variable: highlight.js's own types pull in the DOM library, which changes Node's stream types.
    const core: string = 'highlight.js/lib/core';
    const { default: hljs } = (await import(core)) as { default: HighlightJs };
    const modules = await Promise.all(LANGUAGES.map((name) => import(`highlight.js/lib/languages/${name}`) as Promise<{ default: unknown }>));
    LANGUAGES.forEach((name, index) => hljs.registerLanguage(name, modules[index]!.default));
    return (code, language, colour) => {
      const name = language.toLowerCase();
      if (!hljs.getLanguage(name)) return undefined;
      try {
        return htmlToStyledLines(hljs.highlight(code, { language: name, ignoreIllegals: true }).value, colour);
      } catch {
        return undefined;
      }
    };
  })();
  return loading;
}

/** Which colour a highlight.js scope gets; the first matching part of the class name wins. */
function styleOf(scope: string, colour: ChalkInstance): (text: string) => string {
  const part = scope.replace(/^hljs-/, '').split(/[_.\s]/)[0] ?? '';
  switch (part) {
    case 'keyword':
    case 'selector':
    case 'doctag':
    case 'meta':
      return colour.magenta;
    case 'built':
    case 'type':
    case 'class':
    case 'tag':
    case 'name':
      return colour.blue;
    case 'string':
    case 'regexp':
    case 'addition':
    case 'symbol':
      return colour.green;
    case 'number':
    case 'literal':
    case 'attr':
    case 'attribute':
    case 'variable':
    case 'params':
      return colour.yellow;
    case 'comment':
    case 'quote':
      return colour.gray;
    case 'title':
    case 'function':
    case 'section':
      return colour.cyan;
    case 'deletion':
      return colour.red;
    default:
      return (text) => text;
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };

/**
 * highlight.js gives HTML: text with every `<`, `>`, `&` escaped, inside nested
 * `<span class="hljs-…">`. Each line comes out styled on its own, so a comment spanning lines
 * stays coloured on each and nothing bleeds into the frame around the code.
 */
function htmlToStyledLines(html: string, colour: ChalkInstance): string[] {
  const stack: ((text: string) => string)[] = [];
  const lines: string[] = [];
  let line = '';
  const styled = (text: string) => stack.reduceRight((inner, style) => style(inner), text);
  for (const piece of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (piece.startsWith('<span')) {
      stack.push(styleOf(/class="([^"]*)"/.exec(piece)?.[1] ?? '', colour));
      continue;
    }
    if (piece === '</span>') {
      stack.pop();
      continue;
    }
    const text = piece.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);
    const parts = text.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) {
        lines.push(line);
        line = '';
      }
      if (part !== '') line += styled(part);
    });
  }
  lines.push(line);
  return lines;
}
