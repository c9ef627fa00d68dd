import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { requestAt, toolResultText, assertEveryRequestValid } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { raw, text, toolCalls } from '../helpers/dashscope-server.ts';
import { startPageServer } from '../helpers/page-server.ts';
import { writeUserSettings } from '../mcp/mcp-helpers.ts';
import { startSearchServer, type SearchBehaviour, type SearchService } from '../helpers/search-servers.ts';
import { closeAtEnd } from '../helpers/served.ts';

const KEY = 'sk-sylvan-web-test-4e1a';
const SEARCH_KEY = 'search-key-for-tests-77f0';
const QUERY = 'who won the 2024 nobel prize in physics';
const searchCall = { id: 'call_search', name: 'web_search', arguments: { query: QUERY } };

const searchEnv = (service: SearchService, url: string): Record<string, string> =>
  ({
    tavily: { TAVILY_API_KEY: SEARCH_KEY, TAVILY_BASE_URL: url },
    brave: { BRAVE_API_KEY: SEARCH_KEY, BRAVE_BASE_URL: url },
    searxng: { SEARXNG_URL: url },
  })[service];

/** `sylvan -p` against a loopback DashScope whose model calls web_search, with `service` behind it. */
async function searchThroughCli(service: SearchService, behaviour: SearchBehaviour = 'ok') {
  const search = closeAtEnd(await startSearchServer(service, { key: SEARCH_KEY, behaviour }));
  const run = await runCli({ inProcess: true, server: { replies: [toolCalls([searchCall]), text('Hopfield and Hinton won it.')] }, key: KEY, args: ['-p', 'who won the 2024 Nobel Prize in Physics?'], env: { ...searchEnv(service, search.url), SYLVAN_TOOL_TIMEOUT: '3' } });
  return { search, ...run };
}

const runs = {
  tavily: searchThroughCli('tavily'),
  brave: searchThroughCli('brave'),
  searxng: searchThroughCli('searxng'),
};

describe('web_search through sylvan -p', { timeout: 90_000 }, () => {
  for (const service of ['tavily', 'brave', 'searxng'] as const) {
    test(`${service}: the query goes out with the right key or URL, and the results reach the model`, async () => {
      const { search, server, result } = await runs[service];
      assert.equal(result.code, 0, result.stderr);
      assert.equal(search.requests.length, 1, 'one search request');
      const [request] = search.requests;
      if (service === 'tavily') {
        assert.equal(request?.headers.authorization, `Bearer ${SEARCH_KEY}`);
        assert.equal((JSON.parse(request?.body ?? '{}') as { query?: string }).query, QUERY);
      } else {
        assert.equal(request?.query.get('q'), QUERY);
        if (service === 'brave') assert.equal(request?.headers['x-subscription-token'], SEARCH_KEY);
        else assert.equal(request?.query.get('format'), 'json');
      }
      assertEveryRequestValid(server);
      const offered = (requestAt(server, 0).body?.tools ?? []).map((tool) => tool.function.name);
      assert.ok(offered.includes('web_search') && offered.includes('web_fetch'), `offered: ${offered.join(', ')}`);
      const observation = toolResultText(requestAt(server, 1), 'call_search');
      assert.match(observation, /1\. The Nobel Prize in Physics 2024 - NobelPrize\.org\n\s+https:\/\/www\.nobelprize\.org\/prizes\/physics\/2024\/summary\//);
      assert.match(result.stderr, /⏺ web_search\(query: "who won the 2024 nobel prize in physics"\)/);
      assert.match(result.stdout, /Hopfield and Hinton won it\./);
      assert.doesNotMatch(result.stdout + result.stderr, new RegExp(SEARCH_KEY), 'the search key is never shown');
    });
  }

  const failures: Array<[SearchService, SearchBehaviour, RegExp]> = [
    ['tavily', 401, /Tavily refused the request \(HTTP 401\): check TAVILY_API_KEY/],
    ['brave', 429, /Brave Search says too many requests or the plan's quota is used up \(HTTP 429\)/],
    ['searxng', 'malformed', /SearXNG answered with something that is not JSON/],
    ['tavily', 'hang', /Tavily did not answer within 2\.8 s/],
  ];
  const failed = failures.map(([service, behaviour]) => searchThroughCli(service, behaviour));
  for (const [index, [service, behaviour, message]] of failures.entries()) {
    test(`${service} answering ${behaviour}: the model gets an error it can explain, the user one clear line`, async () => {
      const { server, result } = await failed[index]!;
      assert.equal(result.code, 0, result.stderr);
      assert.match(toolResultText(requestAt(server, 1), 'call_search'), message);
      const lines = result.stderr.split('\n').filter((line) => /✗/.test(line));
      assert.equal(lines.length, 1, `one error line, got:\n${result.stderr}`);
      assert.match(lines[0] ?? '', message);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
    });
  }
});

describe('web_fetch through sylvan -p', { timeout: 60_000 }, () => {
  // Each run has its own page server: what one run fetched must not count for another.
  const fetchRun = (args: string[], env: Record<string, string> = {}) =>
    startPageServer().then(closeAtEnd).then(async (site) => ({
      site,
      ...(await runCli({ inProcess: true, server: { replies: [toolCalls([{ id: 'call_fetch', name: 'web_fetch', arguments: { url: `${site.url}/article` } }]), text('Read it.')] }, key: KEY, args, env })),
    }));
  const denied = fetchRun(['-p', 'read the article'], { SYLVAN_FETCH_ALLOW_PRIVATE: '1' });
  const approved = fetchRun(['-p', '--yes', 'read the article'], { SYLVAN_FETCH_ALLOW_PRIVATE: '1' });
  const guarded = fetchRun(['-p', '--yes', 'read the article']);
  // The user's settings approve 127.0.0.1 ahead; the model also asks for 127.0.0.10, whose key
  // `domain:127.0.0.10` starts with the approved one (as `domain:example.com.evil.net` starts with
  // `domain:example.com`; a loopback address keeps the test off the network).
  const approvedAhead = startPageServer().then(closeAtEnd).then(async (site) => {
    const cwd = tempWorkspace();
    writeUserSettings(cwd, { permissions: { allow: ['domain:127.0.0.1'] } });
    const longer = `http://127.0.0.10:${new URL(site.url).port}/article`;
    const calls = [
      { id: 'call_exact', name: 'web_fetch', arguments: { url: `${site.url}/article` } },
      { id: 'call_longer', name: 'web_fetch', arguments: { url: longer } },
    ];
    return { site, ...(await runCli({ inProcess: true, server: { replies: [toolCalls(calls), text('Read one.')] }, key: KEY, cwd, args: ['-p', 'read both'], env: { SYLVAN_FETCH_ALLOW_PRIVATE: '1' } })) };
  });

  test('an unapproved domain is denied in print mode: nothing is fetched, the model hears why', async () => {
    const { site, server, result } = await denied;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(site.requests.filter((request) => request.path === '/article').length, 0);
    assert.match(toolResultText(requestAt(server, 1), 'call_fetch'), /needs the user's approval.*--yes/);
  });

  test('with --yes and SYLVAN_FETCH_ALLOW_PRIVATE=1, the loopback page reaches the model as readable text', async () => {
    const { server, result } = await approved;
    assert.equal(result.code, 0, result.stderr);
    const observation = toolResultText(requestAt(server, 1), 'call_fetch');
    assert.match(observation, /readable-marker-71c/);
    assert.doesNotMatch(observation, /script-marker|nav-marker|footer-marker|secret-style/);
  });

  test('permissions.allow approves exactly its own domain, never a longer one it is the start of', async () => {
    const { site, server, result } = await approvedAhead;
    assert.equal(result.code, 0, result.stderr);
    assert.match(toolResultText(requestAt(server, 1), 'call_exact'), /readable-marker-71c/);
    assert.equal(site.requests.filter((request) => request.path === '/article').length, 1, 'only the approved domain was fetched');
    assert.match(toolResultText(requestAt(server, 1), 'call_longer'), /^web_fetch needs the user's approval.*--yes/);
  });

  test('without the override the loopback address is refused even with --yes', async () => {
    const { server, result } = await guarded;
    assert.match(toolResultText(requestAt(server, 1), 'call_fetch'), /web_fetch refused 127\.0\.0\.1: it is loopback/);
    assert.match(result.stderr, /✗ web_fetch refused 127\.0\.0\.1/);
  });
});

describe('SYLVAN_SEARCH=dashscope', { timeout: 30_000 }, () => {
  const chunk = (delta: object, extra: object = {}, finish: string | null = null) => ({
    id: 'chatcmpl-search', object: 'chat.completion.chunk', created: 1, model: 'qwen-plus', system_fingerprint: null, usage: null,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...extra,
  });
  const searchInfo = { search_info: { search_results: [{ index: 1, title: 'Nobel Prize 2024', url: 'https://www.nobelprize.org/prizes/physics/2024/', site_name: 'NobelPrize.org', icon: '' }] } };
  const run = runCli({ inProcess: true, server: { replies: [raw([chunk({ role: 'assistant', content: '' }, searchInfo), chunk({ content: 'Hopfield and Hinton.' }), chunk({}, {}, 'stop'), '[DONE]'])] }, key: KEY, args: ['-p', 'who won the 2024 Nobel Prize in Physics?'], env: { SYLVAN_SEARCH: 'dashscope' } });

  test('puts enable_search: true and search_options asking for sources into the request; offers no web_search tool', async () => {
    const { server, result } = await run;
    assert.equal(result.code, 0, result.stderr);
    const body = requestAt(server, 0).body;
    assert.equal(body?.enable_search, true);
    assert.deepEqual(body?.search_options, { enable_source: true });
    const offered = (body?.tools ?? []).map((tool) => tool.function.name);
    assert.ok(!offered.includes('web_search'), `offered: ${offered.join(', ')}`);
  });

  test('shows the sources DashScope reports in the stream', async () => {
    const { result } = await run;
    assert.match(result.stdout, /Hopfield and Hinton\./);
    assert.match(result.stderr, /Sources \(DashScope web search\):\n\s+\[1\] Nobel Prize 2024 \(NobelPrize\.org\) — https:\/\/www\.nobelprize\.org\/prizes\/physics\/2024\//);
  });
});

describe('offline, no key: the ReAct article\'s GDP question piped into the REPL', { timeout: 30_000 }, () => {
  test('shows web_search, then calculate, then an answer built from both, marked as sample data', async () => {
    const result = await runCli({ inProcess: true, stdin: '2024 年中国 GDP 总量是多少万亿美元?换算成人民币是多少(按 7.2 汇率)?\nexit\n', env: { SYLVAN_MOCK_DELAY_MS: '0' } });
    assert.equal(result.code, 0, result.stderr);
    const out = result.stdout;
    const search = out.indexOf('⏺ web_search(query: "2024 年中国 GDP 总量是多少万亿美元")');
    const calculate = out.indexOf('⏺ calculate(expression: "18.7 * 7.2")');
    assert.ok(search >= 0 && calculate > search, `web_search then calculate expected:\n${out}`);
    const answer = out.slice(calculate);
    assert.match(answer, /18\.7 \* 7\.2 = 134\.64/);
    assert.match(answer, /约合 \*\*134\.64 万亿元人民币\*\*/);
    assert.match(answer, /18\.7 万亿美元/);
    assert.match(answer, /示例搜索数据，不是实时搜索结果/);
    assert.match(out, /sample search/, 'the banner says search is sample data');
  });
});
