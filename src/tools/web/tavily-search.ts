import { z } from 'zod';
import { requestJson, unexpectedShape, type BackendHttpOptions, type SearchBackend } from './search-backend.ts';

/** Tavily's `POST /search` answer, the fields Sylvan reads (https://docs.tavily.com/documentation/api-reference/endpoint/search). */
const tavilyResponse = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
      published_date: z.string().nullish(),
    }),
  ),
});

const IDENTITY = { label: 'Tavily', keyVariable: 'TAVILY_API_KEY', urlVariable: 'TAVILY_BASE_URL' };

/** Tavily: `POST {base}/search` with the key as a bearer token; sends the query and a result count. */
export function createTavilyBackend(options: { apiKey: string; baseUrl: string } & Omit<BackendHttpOptions, 'signal'>): SearchBackend {
  return {
    label: IDENTITY.label,
    live: true,
    async search(query, maxResults, signal) {
      const json = await requestJson(
        IDENTITY,
        new URL(`${options.baseUrl}/search`),
        {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ query, max_results: maxResults, search_depth: 'basic', include_answer: false }),
        },
        { ...options, signal },
      );
      const parsed = tavilyResponse.safeParse(json);
      if (!parsed.success) throw unexpectedShape(IDENTITY.label, 'no "results" list');
      return parsed.data.results.map((result) => ({
        title: result.title ?? result.url,
        url: result.url,
        snippet: result.content ?? '',
        ...(result.published_date ? { date: result.published_date } : {}),
      }));
    },
  };
}
