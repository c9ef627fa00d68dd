import { sanitizeLine } from '../shared/text/sanitize.ts';

/** One source DashScope's server-side search reports (`search_info.search_results[]`). */
export interface SearchSource {
  index?: number;
  title: string;
  url: string;
  siteName?: string;
}

/** Where the sources of the current step collect until the UI is told about them. */
export class SearchSourceLog {
  private pending: SearchSource[] = [];

  /** DashScope may repeat `search_info` in every chunk: each URL is kept once until taken. */
  add = (sources: readonly SearchSource[]): void => {
    for (const source of sources) {
      if (!this.pending.some((kept) => kept.url === source.url)) this.pending.push(source);
    }
  };

  /** The sources reported since the last call. */
  take(): SearchSource[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}

/**
 * A `fetch` for the DashScope provider that turns on DashScope's own web search: every chat request
 * body gets `enable_search: true` and `search_options: { enable_source: true }` (asking for the
 * sources). Responses pass through unchanged while `search_info.search_results` is read from the
 * stream (top level or under `output`, as DashScope sends it) and handed to `onSources`.
 * Independent of the provider package: it works under `@ai-sdk/openai` and `@ai-sdk/alibaba` alike.
 */
export function dashscopeSearchFetch(onSources: (sources: SearchSource[]) => void, base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const body = typeof init?.body === 'string' ? withSearch(init.body) : init?.body;
    const response = await base(input, { ...init, body });
    if (!response.ok || !response.body) return response;
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream')) {
      return new Response(response.body.pipeThrough(sourceTap(onSources)), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    if (type.includes('json')) {
      void response
        .clone()
        .json()
        .then((json: unknown) => report(json, onSources), () => {});
    }
    return response;
  };
}

function withSearch(body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { messages?: unknown }).messages)) return body;
  const request = json as Record<string, unknown>;
  const options = typeof request.search_options === 'object' && request.search_options !== null ? request.search_options : {};
  return JSON.stringify({ ...request, enable_search: true, search_options: { ...options, enable_source: true } });
}

/** Passes SSE bytes through untouched and reads each complete `data:` line on the way. */
function sourceTap(onSources: (sources: SearchSource[]) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffered = '';
  const readLines = (final: boolean) => {
    const lines = buffered.split('\n');
    buffered = final ? '' : (lines.pop() ?? '');
    for (const line of lines) {
      const data = /^data:\s?(.*)$/.exec(line.trimEnd())?.[1];
      if (!data || data === '[DONE]' || !data.includes('search_info')) continue;
      try {
        report(JSON.parse(data), onSources);
      } catch {
        // A malformed chunk is the provider's to report; the tap only looks for sources.
      }
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      buffered += decoder.decode(chunk, { stream: true });
      readLines(false);
    },
    flush() {
      buffered += decoder.decode();
      readLines(true);
    },
  });
}

function report(json: unknown, onSources: (sources: SearchSource[]) => void): void {
  const record = json as { search_info?: unknown; output?: { search_info?: unknown } } | null;
  const info = (record?.search_info ?? record?.output?.search_info) as { search_results?: unknown } | undefined;
  if (!Array.isArray(info?.search_results)) return;
  const sources = info.search_results.flatMap((entry): SearchSource[] => {
    const item = entry as { index?: unknown; title?: unknown; url?: unknown; site_name?: unknown };
    if (typeof item.url !== 'string' || !/^https?:\/\//i.test(item.url)) return [];
    return [{
      url: item.url,
      title: typeof item.title === 'string' && item.title.trim() !== '' ? item.title.trim() : item.url,
      ...(typeof item.index === 'number' ? { index: item.index } : {}),
      ...(typeof item.site_name === 'string' && item.site_name !== '' ? { siteName: item.site_name } : {}),
    }];
  });
  if (sources.length > 0) onSources(sources);
}

/** "Sources (DashScope web search):" and one line per source, for a notice. */
export function describeSources(sources: readonly SearchSource[]): string {
  const lines = sources.map((source, position) => {
    const number = source.index ?? position + 1;
    const site = source.siteName ? ` (${sanitizeLine(source.siteName)})` : '';
    return `  [${number}] ${sanitizeLine(source.title)}${site} — ${sanitizeLine(source.url)}`;
  });
  return ['Sources (DashScope web search):', ...lines].join('\n');
}
