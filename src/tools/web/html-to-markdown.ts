/**
 * HTML → readable markdown with maintained libraries: linkedom builds the DOM, Mozilla's
 * Readability (Firefox Reader View) picks the article, turndown writes markdown. All three load
 * with `import()` on the first page fetched, never at start.
 */

export interface ReadablePage {
  title?: string;
  markdown: string;
  /** 'article' when Readability found one; 'page' when the whole body was converted instead. */
  extraction: 'article' | 'page';
}

/** Elements that are never content. */
const NOT_CONTENT = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'form', 'button', 'input', 'select', 'textarea'];
/** Page furniture, dropped when no article was found and the whole body is converted. */
const FURNITURE = ['nav', 'header', 'footer', 'aside', '[role="navigation"]', '[role="banner"]', '[role="contentinfo"]', '[aria-hidden="true"]'];

type Libraries = {
  parseHTML: typeof import('linkedom').parseHTML;
  Readability: typeof import('@mozilla/readability').Readability;
  TurndownService: typeof import('turndown');
};

let libraries: Promise<Libraries> | undefined;

function loadLibraries(): Promise<Libraries> {
  libraries ??= Promise.all([import('linkedom'), import('@mozilla/readability'), import('turndown')]).then(
    ([linkedom, readability, turndown]) => ({
      parseHTML: linkedom.parseHTML,
      Readability: readability.Readability,
      TurndownService: turndown.default,
    }),
  );
  return libraries;
}

/** Starts loading the libraries while the page downloads; a failure surfaces later, in `htmlToMarkdown`. */
export function preloadHtmlLibraries(): void {
  loadLibraries().catch(() => {
    libraries = undefined;
  });
}

export async function htmlToMarkdown(html: string, pageUrl: string): Promise<ReadablePage> {
  const { parseHTML, Readability, TurndownService } = await loadLibraries();
  const { document } = parseHTML(html);
  for (const element of document.querySelectorAll(NOT_CONTENT.join(','))) element.remove();
  const title = document.querySelector('title')?.textContent?.trim() || undefined;
  const fallbackBody = (document.body as unknown as { cloneNode(deep: boolean): { innerHTML: string; querySelectorAll(s: string): Iterable<{ remove(): void }> } } | null)?.cloneNode(true);

  let article: ReturnType<InstanceType<typeof Readability>['parse']> = null;
  try {
    // Readability changes the document it reads; the fallback uses the clone taken above.
    article = new Readability(document as never, { charThreshold: 200 }).parse();
  } catch {
    article = null;
  }
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(NOT_CONTENT as never);
  // Links keep their text and an absolute address; images keep only their description.
  turndown.addRule('absolute-links', {
    filter: (node) => node.nodeName === 'A' && Boolean((node as unknown as { getAttribute(n: string): string | null }).getAttribute('href')),
    replacement: (content, node) => {
      const href = (node as unknown as { getAttribute(n: string): string | null }).getAttribute('href') ?? '';
      const text = content.trim();
      let absolute: string;
      try {
        absolute = new URL(href, pageUrl).href;
      } catch {
        return text;
      }
      if (!/^https?:/i.test(absolute) || text === '') return text;
      return `[${text}](${absolute})`;
    },
  });
  turndown.addRule('image-descriptions', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = (node as unknown as { getAttribute(n: string): string | null }).getAttribute('alt')?.trim();
      return alt ? `[image: ${alt}]` : '';
    },
  });

  if (article?.content && (article.textContent?.trim().length ?? 0) > 0) {
    return { title: article.title?.trim() || title, markdown: tidy(turndown.turndown(article.content)), extraction: 'article' };
  }
  if (!fallbackBody) return { title, markdown: '', extraction: 'page' };
  for (const element of fallbackBody.querySelectorAll(FURNITURE.join(','))) element.remove();
  return { title, markdown: tidy(turndown.turndown(fallbackBody.innerHTML)), extraction: 'page' };
}

/** At most one blank line in a row, no trailing spaces. */
function tidy(markdown: string): string {
  return markdown.replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').trim();
}
