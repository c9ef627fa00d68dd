import type { HopResult } from './guarded-get.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';

export interface PageText {
  /** First line of the result: the address, the type, the size. */
  heading: string;
  text: string;
  /** What was cut or could not be shown, for the closing note. */
  notes: string[];
}

const TEXT_TYPES = /^(?:text\/|application\/(?:json|ld\+json|xml|javascript|x-javascript|ecmascript|x-yaml|yaml|toml|csv|x-ndjson|rss\+xml|atom\+xml)|application\/[\w.+-]+\+(?:json|xml))/i;
const HTML_TYPES = /^(?:text\/html|application\/xhtml\+xml)/i;

const bytes = (count: number): string =>
  count >= 1024 * 1024 ? `${(count / 1024 / 1024).toFixed(1)} MB` : count >= 1024 ? `${(count / 1024).toFixed(1)} kB` : `${count} bytes`;

/** Turns one fetched body into what the model reads: markdown for HTML, text as it is, binaries described. */
export async function describePage(url: URL, hop: HopResult, maxBytes: number): Promise<PageText> {
  const contentType = hop.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? '';
  const size = hop.truncated ? `more than ${bytes(maxBytes)}` : bytes(hop.body.length);
  const notes = hop.truncated ? [`the download stopped at the ${bytes(maxBytes)} cap, so only the start of the page was read`] : [];
  const kind = classify(contentType, hop.body);

  if (kind === 'pdf' || kind === 'binary') {
    const what = kind === 'pdf' ? 'a PDF document' : `a binary file (${contentType || 'unknown type'})`;
    return {
      heading: `${url.href} is ${what}, ${size}.`,
      text: 'Its contents cannot be shown as text. Tell the user what it is; do not guess what it says.',
      notes: [],
    };
  }
  const decoded = decode(hop.body, hop.headers['content-type']);
  if (kind === 'html') {
    const page = await htmlToMarkdown(decoded, url.href);
    const how = page.extraction === 'article' ? 'main article as markdown' : 'page text as markdown (no article found)';
    return {
      heading: `${url.href} — ${page.title ? `"${page.title.replace(/\s+/g, ' ')}", ` : ''}HTML, ${size}; ${how}:`,
      text: page.markdown === '' ? '(The page has no readable text; it may need JavaScript to show anything.)' : page.markdown,
      notes,
    };
  }
  return { heading: `${url.href} — ${contentType || 'text'}, ${size}:`, text: decoded, notes };
}

function classify(contentType: string, body: Buffer): 'html' | 'text' | 'pdf' | 'binary' {
  if (contentType === 'application/pdf' || body.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (HTML_TYPES.test(contentType)) return 'html';
  if (TEXT_TYPES.test(contentType)) return 'text';
  const sniff = body.subarray(0, 4096);
  if (sniff.includes(0)) return 'binary';
  if (contentType === '' || contentType === 'application/octet-stream') {
    return /^\s*<(?:!doctype html|html|head|body)/i.test(sniff.toString('latin1')) ? 'html' : contentType === '' ? 'text' : 'binary';
  }
  return 'binary';
}

/** The charset the server named (or a <meta charset>), else UTF-8; unknown labels fall back to UTF-8. */
function decode(body: Buffer, contentTypeHeader: string | undefined): string {
  const named =
    /charset="?([\w.:-]+)"?/i.exec(contentTypeHeader ?? '')?.[1] ??
    /<meta[^>]+charset=["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(named ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
