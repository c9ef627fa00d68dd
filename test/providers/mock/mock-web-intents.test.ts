import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { decideMockReply, type MockReply } from '../../../src/providers/mock/mock-intent.ts';
import { type AvailableTools } from '../../../src/providers/mock/mock-tool-intents.ts';

const TOOLS: AvailableTools = new Map([
  ['get_weather', new Set(['city'])],
  ['calculate', new Set(['expression'])],
  ['read_file', new Set(['path'])],
  ['web_search', new Set(['query', 'max_results'])],
  ['web_fetch', new Set(['url'])],
]);

const SAMPLE_RESULT = `SAMPLE search results for "2024 年中国 GDP 总量是多少万亿美元" — fixed examples built into Sylvan, NOT a live web search; tell the user they are sample data:
1. 2024 年中国 GDP 总量（示例数据 / sample）
   https://data.worldbank.org/indicator/NY.GDP.MKTP.CD?locations=CN · 2025
   2024 年中国国内生产总值（GDP）约 18.7 万亿美元（现价美元）。China GDP 2024: about 18.7 trillion US dollars.`;

const user = (text: string): LanguageModelV4Prompt[number] => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string, toolName: string, input: object): LanguageModelV4Prompt[number] => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName, input }],
});
const result = (id: string, toolName: string, value: string): LanguageModelV4Prompt[number] => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName, output: { type: 'text', value } }],
});

const decide = (prompt: LanguageModelV4Prompt, tools = TOOLS): MockReply => decideMockReply([{ role: 'system', content: 'Sylvan' }, ...prompt], tools);
const callsOf = (reply: MockReply) => (reply.type === 'tool-calls' ? reply.calls.map((planned) => [planned.toolName, planned.input]) : []);

const GDP = '2024 年中国 GDP 总量是多少万亿美元?换算成人民币是多少(按 7.2 汇率)?';

describe('the mock model: web intents', { timeout: 5_000 }, () => {
  test('搜索 / 查一下 / search … → web_search with what follows', () => {
    assert.deepEqual(callsOf(decide([user('搜索 Node.js 22 发布日期')])), [['web_search', { query: 'Node.js 22 发布日期' }]]);
    assert.deepEqual(callsOf(decide([user('查一下 2024 年中国人口')])), [['web_search', { query: '2024 年中国人口' }]]);
    assert.deepEqual(callsOf(decide([user('search for the latest TypeScript release')])), [['web_search', { query: 'the latest TypeScript release' }]]);
  });

  test('查一下 still means the weather when the rest asks for it', () => {
    assert.deepEqual(callsOf(decide([user('帮我查一下拉萨的天气')])), [['get_weather', { city: '拉萨' }]]);
  });

  test('打开 / fetch <url> → web_fetch, never read_file of the URL', () => {
    assert.deepEqual(callsOf(decide([user('打开 https://example.com/docs/a.html')])), [['web_fetch', { url: 'https://example.com/docs/a.html' }]]);
    assert.deepEqual(callsOf(decide([user('fetch https://example.com/data.json.')])), [['web_fetch', { url: 'https://example.com/data.json' }]]);
  });

  test('without the web tools, a URL is not read as a file and a search is not planned', () => {
    const noWeb: AvailableTools = new Map([['read_file', new Set(['path'])]]);
    const reply = decide([user('打开 https://example.com/a.html')], noWeb);
    assert.equal(reply.type, 'text');
  });

  test('the GDP question: search first, then calculate on the figure found, then an answer from both marked as sample', () => {
    assert.deepEqual(callsOf(decide([user(GDP)])), [['web_search', { query: '2024 年中国 GDP 总量是多少万亿美元' }]]);
    const afterSearch = [user(GDP), call('c1', 'web_search', { query: 'q' }), result('c1', 'web_search', SAMPLE_RESULT)];
    assert.deepEqual(callsOf(decide(afterSearch)), [['calculate', { expression: '18.7 * 7.2' }]]);
    const afterCalculation = [...afterSearch, call('c2', 'calculate', { expression: '18.7 * 7.2' }), result('c2', 'calculate', '18.7 * 7.2 = 134.64')];
    const answer = decide(afterCalculation);
    assert.equal(answer.type, 'text');
    const text = answer.type === 'text' ? answer.text : '';
    assert.match(text, /示例搜索数据/);
    assert.match(text, /约 18\.7 万亿美元/);
    assert.match(text, /来源：https:\/\/data\.worldbank\.org/);
    assert.match(text, /约合 \*\*134\.64 万亿元人民币\*\*/);
  });

  test('a search with no arithmetic asked is answered from the results alone, sample flagged', () => {
    const prompt = [user('查一下 2024 年中国 GDP'), call('c1', 'web_search', { query: 'q' }), result('c1', 'web_search', SAMPLE_RESULT)];
    const reply = decide(prompt);
    assert.equal(reply.type, 'text');
    assert.match(reply.type === 'text' ? reply.text : '', /^搜索到 1 条结果（示例数据，不是实时搜索）：\n1\. 2024 年中国 GDP 总量/);
  });

  test('a failed search is reported as a failure, not answered', () => {
    const prompt = [user(GDP), call('c1', 'web_search', { query: 'q' }), { role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: 'c1', toolName: 'web_search', output: { type: 'error-text' as const, value: 'Tavily refused the request (HTTP 401): check TAVILY_API_KEY.' } }] }];
    const reply = decide(prompt);
    assert.equal(reply.type, 'text');
    assert.match(reply.type === 'text' ? reply.text : '', /抱歉，没能搜索「q」：Tavily refused the request \(HTTP 401\)/);
  });
});
