import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { closeAtEnd } from '../../helpers/served.ts';
import { startSearchServer, type SearchBehaviour, type SearchService } from '../../helpers/search-servers.ts';
import { formatResults, MAX_SEARCH_RESULT_CHARS, searchBackendFor } from '../../../src/tools/web/web-search.ts';
import { parseSearchConfig, type SearchConfig } from '../../../src/tools/web/web-config.ts';
import { createSampleBackend } from '../../../src/tools/web/sample-search.ts';
import type { SearchBackend, SearchResult } from '../../../src/tools/web/search-backend.ts';

const KEY = 'test-search-key-5b1e';
const fail = (message: string) => new Error(message);

function configFor(service: SearchService, url: string): SearchConfig {
  const env = {
    tavily: { SYLVAN_SEARCH: 'tavily', TAVILY_API_KEY: KEY, TAVILY_BASE_URL: url },
    brave: { SYLVAN_SEARCH: 'brave', BRAVE_API_KEY: KEY, BRAVE_BASE_URL: url },
    searxng: { SYLVAN_SEARCH: 'searxng', SEARXNG_URL: url },
  }[service];
  return parseSearchConfig(env, 'dashscope', fail);
}

async function searchAgainst(service: SearchService, behaviour: SearchBehaviour, timeoutMs = 5_000) {
  const server = closeAtEnd(await startSearchServer(service, { key: KEY, behaviour }));
  const backend = searchBackendFor(configFor(service, server.url), { timeoutMs });
  assert.ok(backend, `no backend for ${service}`);
  const outcome: { results?: SearchResult[]; error?: Error; backend: SearchBackend } = await backend
    .search('who won the 2024 nobel prize in physics', 3)
    .then((results) => ({ results, backend }), (error: Error) => ({ error, backend }));
  return { server, ...outcome };
}

describe('web_search backends against loopback servers shaped like their APIs', { timeout: 30_000 }, () => {
  test('Tavily: POST /search with the key as a bearer token and the query in the JSON body', async () => {
    const { server, results, backend } = await searchAgainst('tavily', 'ok');
    const [request] = server.requests;
    assert.equal(request?.method, 'POST');
    assert.equal(request?.path, '/search');
    assert.equal(request?.headers.authorization, `Bearer ${KEY}`);
    const body = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
    assert.equal(body.query, 'who won the 2024 nobel prize in physics');
    assert.equal(body.max_results, 3);
    assert.equal(body.api_key, undefined, 'the key travels only in the header');
    assert.ok(results);
    assert.equal(results[0]?.url, 'https://www.nobelprize.org/prizes/physics/2024/summary/');
    assert.equal(results[0]?.date, '2024-10-08');
    const text = formatResults('nobel', results, backend);
    assert.match(text, /^Web search results for "nobel" \(Tavily, 2 results\):\n1\. The Nobel Prize in Physics 2024/);
    assert.match(text, /Hopfield and Geoffrey E\. Hinton/);
  });

  test('Brave: GET /res/v1/web/search?q=…&count=… with X-Subscription-Token; <strong> marks removed', async () => {
    const { server, results } = await searchAgainst('brave', 'ok');
    const [request] = server.requests;
    assert.equal(request?.method, 'GET');
    assert.equal(request?.path, '/res/v1/web/search');
    assert.equal(request?.headers['x-subscription-token'], KEY);
    assert.equal(request?.query.get('q'), 'who won the 2024 nobel prize in physics');
    assert.equal(request?.query.get('count'), '3');
    assert.equal(results?.[0]?.title, 'The Nobel Prize in Physics 2024 - NobelPrize.org');
    assert.equal(results?.[0]?.date, '2024-10-08T09:45:00');
    assert.doesNotMatch(results?.[0]?.snippet ?? '', /<strong>/);
  });

  test('SearXNG: GET /search?q=…&format=json, no key, the page cut to max_results', async () => {
    const { server, results } = await searchAgainst('searxng', 'ok');
    const [request] = server.requests;
    assert.equal(request?.path, '/search');
    assert.equal(request?.query.get('format'), 'json');
    assert.equal(request?.query.get('q'), 'who won the 2024 nobel prize in physics');
    assert.equal(request?.headers.authorization, undefined);
    assert.equal(results?.length, 2);
    assert.equal(results?.[1]?.date, undefined, 'a null publishedDate is no date');
  });

  for (const service of ['tavily', 'brave', 'searxng'] as const) {
    test(`${service}: 401, 429, malformed JSON and a hang each give an error the model can explain`, async () => {
      const rejected = await searchAgainst(service, 401);
      assert.match(rejected.error?.message ?? '', /refused the request \(HTTP 401\)/);
      if (service !== 'searxng') assert.match(rejected.error?.message ?? '', new RegExp(`check ${service.toUpperCase()}_API_KEY`));
      assert.match(rejected.error?.message ?? '', /do not invent results/);
      const limited = await searchAgainst(service, 429);
      assert.match(limited.error?.message ?? '', /too many requests.*HTTP 429/);
      const malformed = await searchAgainst(service, 'malformed');
      assert.match(malformed.error?.message ?? '', /not JSON/);
      const hung = await searchAgainst(service, 'hang', 300);
      assert.match(hung.error?.message ?? '', /did not answer within 0\.3 s/);
    });
  }

  test('a refused connection names the service and the variable to check', async () => {
    const server = await startSearchServer('searxng');
    await server.close();
    const backend = searchBackendFor(configFor('searxng', server.url));
    const error = await backend!.search('x', 1).then(() => undefined, (caught: Error) => caught);
    assert.match(error?.message ?? '', /Could not reach SearXNG at http:\/\/127\.0\.0\.1:\d+ \(check SEARXNG_URL\)/);
  });
});

describe('the result the model reads', { timeout: 10_000 }, () => {
  test('sample results say they are sample data, and an unknown topic is an error, not an invention', async () => {
    const backend = createSampleBackend();
    const results = await backend.search('2024 年中国 GDP 总量', 5);
    const text = formatResults('2024 年中国 GDP 总量', results, backend);
    assert.match(text, /^SAMPLE search results .* NOT a live web search/);
    assert.match(text, /18\.7 万亿美元/);
    await assert.rejects(backend.search('weather on Mars', 5), /no sample search results .* do not invent/);
  });

  test('a huge answer is cut to the budget with a note on how many results were left out', () => {
    const backend = { label: 'Test', live: true, search: async () => [] };
    const results = Array.from({ length: 40 }, (_, index) => ({ title: `Result ${index}`, url: `https://example.com/${index}`, snippet: 'x'.repeat(2_000) }));
    const text = formatResults('q', results, backend);
    assert.ok(text.length <= MAX_SEARCH_RESULT_CHARS, `result is ${text.length} characters`);
    assert.match(text, /\(\d+ more result\(s\) left out to keep this short\.\)$/);
  });
});

describe('choosing a backend', { timeout: 10_000 }, () => {
  test('the first key found wins, the mock gets sample data, a real model with no key gets none', () => {
    assert.equal(parseSearchConfig({ BRAVE_API_KEY: 'b', SEARXNG_URL: 'http://localhost:8888' }, 'openai', fail).backend, 'brave');
    assert.equal(parseSearchConfig({ SEARXNG_URL: 'http://localhost:8888/' }, 'openai', fail).searxngUrl, 'http://localhost:8888');
    assert.equal(parseSearchConfig({}, 'mock', fail).backend, 'sample');
    assert.equal(parseSearchConfig({}, 'dashscope', fail).backend, 'off');
    assert.equal(searchBackendFor(parseSearchConfig({}, 'dashscope', fail)), undefined);
  });

  test('an explicit backend without what it needs is one clear line', () => {
    assert.throws(() => parseSearchConfig({ SYLVAN_SEARCH: 'tavily' }, 'mock', fail), /SYLVAN_SEARCH=tavily needs TAVILY_API_KEY/);
    assert.throws(() => parseSearchConfig({ SYLVAN_SEARCH: 'bing' }, 'mock', fail), /SYLVAN_SEARCH must be one of tavily, brave, searxng, sample, dashscope, off/);
    assert.throws(() => parseSearchConfig({ SYLVAN_SEARCH: 'dashscope' }, 'openai', fail), /only with the dashscope provider/);
    assert.throws(() => parseSearchConfig({ SEARXNG_URL: 'ftp://x' }, 'mock', fail), /SEARXNG_URL must start with http/);
  });

  test('a folder cannot redirect a key or lower the address guard: those come from the process only', () => {
    const fromDotenv = { TAVILY_API_KEY: 'k', TAVILY_BASE_URL: 'http://evil.example', SYLVAN_FETCH_ALLOW_PRIVATE: '1' };
    const config = parseSearchConfig(fromDotenv, 'mock', fail, {});
    assert.equal(config.tavilyBaseUrl, 'https://api.tavily.com');
    assert.equal(config.allowPrivateAddresses, false);
  });
});
