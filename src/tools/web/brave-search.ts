import { z } from 'zod';
import { requestJson, unexpectedShape, type BackendHttpOptions, type SearchBackend } from './search-backend.ts';

/** Brave's `GET /res/v1/web/search` answer, the fields Sylvan reads (https://api-dashboard.search.brave.com/app/documentation/web-search/responses). */
const braveResponse = z.object({
  web: z
    .object({
      results: z.array(
        z.object({
          title: z.string().nullish(),
          url: z.string(),
          description: z.string().nullish(),
          page_age: z.string().nullish(),
          age: z.string().nullish(),
        }),
      ),
    })
    .optional(),
});

const IDENTITY = { label: 'Brave Search', keyVariable: 'BRAVE_API_KEY', urlVariable: 'BRAVE_BASE_URL' };

/** Brave snippets mark the matched words with <strong>; the model needs the words only. */
const stripTags = (text: string): string => text.replace(/<\/?[a-z][^>]*>/gi, '');

/** Brave Search: `GET {base}/res/v1/web/search?q=…&count=…` with the key in `X-Subscription-Token`. */
export function createBraveBackend(options: { apiKey: string; baseUrl: string } & Omit<BackendHttpOptions, 'signal'>): SearchBackend {
  return {
    label: IDENTITY.label,
    live: true,
    async search(query, maxResults, signal) {
      const url = new URL(`${options.baseUrl}/res/v1/web/search`);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(Math.min(maxResults, 20)));
      const json = await requestJson(
        IDENTITY,
        url,
        { method: 'GET', headers: { 'x-subscription-token': options.apiKey, accept: 'application/json' } },
        { ...options, signal },
      );
      const parsed = braveResponse.safeParse(json);
      if (!parsed.success) throw unexpectedShape(IDENTITY.label, 'no "web.results" list');
      return (parsed.data.web?.results ?? []).map((result) => {
        const date = result.page_age ?? result.age;
        return {
          title: stripTags(result.title ?? result.url),
          url: result.url,
          snippet: stripTags(result.description ?? ''),
          ...(date ? { date } : {}),
        };
      });
    },
  };
}
