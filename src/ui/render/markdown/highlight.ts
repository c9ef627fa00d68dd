import type { ChalkInstance } from 'chalk';

/** Styled lines of `code`, or undefined when the language is not one we highlight. */
export type Highlighter = (code: string, language: string, colour: ChalkInstance) => string[] | undefined;

/** The languages we highlight, each a small module of highlight.js, by the names answers use for them. */
const LANGUAGES: Record<string, string> = {
  bash: 'bash', sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash',
  c: 'c', h: 'c',
  cpp: 'cpp', 'c++': 'cpp', cc: 'cpp', hpp: 'cpp',
  css: 'css',
  diff: 'diff', patch: 'diff',
  go: 'go', golang: 'go',
  java: 'java',
  javascript: 'javascript', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  json: 'json', jsonc: 'json',
  markdown: 'markdown', md: 'markdown',
  python: 'python', py: 'python',
  rust: 'rust', rs: 'rust',
  sql: 'sql',
  typescript: 'typescript', ts: 'typescript', tsx: 'typescript',
  xml: 'xml', html: 'xml', svg: 'xml',
  yaml: 'yaml', yml: 'yaml',
};

/** The part of highlight.js's API used here. */
interface HighlightJs {
  registerLanguage(name: string, language: unknown): void;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

let core: Promise<HighlightJs> | undefined;
const languages = new Map<string, Promise<boolean>>();

/**
 * highlight.js core, imported when the first code block of the session arrives, and each
 * language the first time a block uses it (about 10 ms for core and one language), never
 * before the prompt. Resolves with a highlighter that knows every language loaded so far.
 */
export async function loadHighlighter(wanted: readonly string[] = []): Promise<Highlighter> {
  // Named through a variable: highlight.js's own types pull in the DOM library, which changes Node's stream types.
  const corePath: string = 'highlight.js/lib/core';
  core ??= import(corePath).then((module: { default: HighlightJs }) => module.default);
  const hljs = await core;
  await Promise.all(
    wanted.map((language) => {
      const name = LANGUAGES[language.toLowerCase()];
      if (!name) return false;
      let loading = languages.get(name);
      if (!loading) {
        loading = import(`highlight.js/lib/languages/${name}`).then(
          (module: { default: unknown }) => (hljs.registerLanguage(name, module.default), true),
          () => false,
        );
        languages.set(name, loading);
      }
      return loading;
    }),
  );
  return (code, language, colour) => {
    const name = LANGUAGES[language.toLowerCase()];
    if (!name || !languages.has(name)) return undefined;
    try {
      return htmlToStyledLines(hljs.highlight(code, { language: name, ignoreIllegals: true }).value, colour);
    } catch {
      return undefined;
    }
  };
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
