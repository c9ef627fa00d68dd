import { z } from 'zod';
import { requestJson, unexpectedShape, type BackendHttpOptions, type SearchBackend } from './search-backend.ts';

/** SearXNG's `/search?format=json` answer, the fields Sylvan reads (https://docs.searxng.org/dev/search_api.html). */
const searxngResponse = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
});

const IDENTITY = { label: 'SearXNG', urlVariable: 'SEARXNG_URL' };

/** A self-hosted SearXNG: `GET {SEARXNG_URL}/search?q=…&format=json`, no key. */
export function createSearxngBackend(options: { baseUrl: string } & Omit<BackendHttpOptions, 'signal'>): SearchBackend {
  return {
    label: IDENTITY.label,
    live: true,
    async search(query, maxResults, signal) {
      const url = new URL(`${options.baseUrl}/search`);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const json = await requestJson(IDENTITY, url, { method: 'GET', headers: { accept: 'application/json' } }, { ...options, signal });
      const parsed = searxngResponse.safeParse(json);
      if (!parsed.success) throw unexpectedShape(IDENTITY.label, 'no "results" list');
      // SearXNG has no count parameter: it returns a page (about 20), so the list is cut here.
      return parsed.data.results.slice(0, maxResults).map((result) => ({
        title: result.title ?? result.url,
        url: result.url,
        snippet: result.content ?? '',
        ...(result.publishedDate ? { date: result.publishedDate } : {}),
      }));
    },
  };
}
