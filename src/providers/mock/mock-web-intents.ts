import type { MockLanguage, PromptToolResult } from './mock-prompt.ts';
import type { AvailableTools, PlannedToolCall } from './mock-intent-types.ts';

/**
 * Web calls a message asks for, and its text with the URLs blanked for the other intents. `searchIsExplicit`: the
 * user said "搜索/search", which wins over other intents; "查一下" or a question of fact searches only when nothing
 * else matched.
 */
export type WebIntents = { fetches: PlannedToolCall[]; search?: PlannedToolCall; searchIsExplicit?: boolean; rest: string };

const URL_PATTERN = /https?:\/\/[^\s"'<>（）()[\]{}，。！？、]+/gi;
const FETCH_VERBS = /打开|访问|抓取|读取|读一下|读读|看看|看一下|\bfetch\b|\bopen\b|\bread\b|\bvisit\b|\bget\b/i;
const SEARCH_VERBS = /搜索一下|搜索|搜一下|搜搜|查一下|查查|上网查|查询|\bsearch(?: the web)?(?: for)?\b|\blook up\b|\bgoogle\b/i;
const EXPLICIT_SEARCH = /搜|search|google/i;
/** Questions of fact the mock answers by searching even without "search": figures that change every year. */
const FACT_WORDS = /GDP|国内生产总值|经济总量|人口|\bpopulation\b/i;
const ARITHMETIC_ON_FOUND = /换算|折合|折算|乘以|按\s*\d+(?:\.\d+)?\s*(?:的)?汇率|\bconvert\b|\bin (?:yuan|rmb|cny)\b|exchange rate|\bat (?:a rate of )?\d/i;

/**
 * "打开/fetch <url>" → web_fetch per URL; "搜索/查一下/search …" → web_search with what follows; a question of fact
 * (GDP, population) → web_search with its first clause. URLs are blanked in `rest`, so they are not also read as file
 * paths. Only offered tools are planned. Pure.
 */
export function findWebIntents(text: string, tools: AvailableTools): WebIntents {
  const urls = [...text.matchAll(URL_PATTERN)];
  let rest = text;
  for (const match of urls) rest = rest.slice(0, match.index) + ' '.repeat(match[0].length) + rest.slice((match.index ?? 0) + match[0].length);
  if (urls.length > 0 && tools.has('web_fetch') && FETCH_VERBS.test(rest)) {
    return { fetches: urls.map((match) => ({ toolName: 'web_fetch', input: { url: match[0].replace(/[.,;:!?]+$/, '') } })), rest };
  }
  if (!tools.has('web_search')) return { fetches: [], rest };
  const verb = SEARCH_VERBS.exec(rest);
  const query = verb
    ? trimQuery(rest.slice(verb.index + verb[0].length)) || trimQuery(rest.slice(0, verb.index))
    : FACT_WORDS.test(rest)
      ? trimQuery(/^[^?？!！。;；\n]*/.exec(rest)?.[0] ?? rest)
      : '';
  if (!query) return { fetches: [], rest };
  const searchIsExplicit = verb !== null && EXPLICIT_SEARCH.test(verb[0]);
  return { fetches: [], search: { toolName: 'web_search', input: { query } }, searchIsExplicit, rest };
}

/**
 * Adds the web calls to what the rest of the message asked for: fetches always; an explicit search instead of the
 * rest; any other search only when nothing else matched, so "查一下北京天气" still asks get_weather.
 */
export function withWebIntents<T extends { calls: PlannedToolCall[]; missingTools: string[]; weatherWithoutCity: boolean }>(
  intents: T,
  web: WebIntents,
): T {
  if (web.fetches.length > 0) return { ...intents, calls: [...web.fetches, ...intents.calls] };
  if (web.search && web.searchIsExplicit) return { ...intents, calls: [web.search], missingTools: [], weatherWithoutCity: false };
  const nothingElse = intents.calls.length === 0 && intents.missingTools.length === 0 && !intents.weatherWithoutCity;
  return web.search && nothingElse ? { ...intents, calls: [web.search] } : intents;
}

function trimQuery(text: string): string {
  return text.replace(/^[\s:：,，"“「]+|[\s。.!！?？,，"”」]+$/g, '').replace(/^(?:一下|下|关于|about)\s*/i, '').trim().slice(0, 200);
}

/**
 * After a web_search in this turn, the arithmetic the question asks for on what was found: "多少万亿美元?换算成人民币
 * (按 7.2 汇率)" with "约 18.7 万亿美元" in the results → calculate "18.7 * 7.2". Undefined when there is nothing to work out.
 */
export function planWebFollowUp(userText: string, results: readonly PromptToolResult[], tools: AvailableTools): PlannedToolCall | undefined {
  if (!tools.has('calculate') || results.some((result) => result.toolName === 'calculate')) return undefined;
  if (!ARITHMETIC_ON_FOUND.test(userText)) return undefined;
  const figure = foundFigure(userText, results);
  const rate = /按\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*(?:的)?汇率|rate (?:of )?(\d+(?:\.\d+)?)|\bat (\d+(?:\.\d+)?)/i.exec(userText);
  const factor = rate?.slice(1).find((group) => group !== undefined);
  if (!figure || !factor) return undefined;
  return { toolName: 'calculate', input: { expression: `${figure.value} * ${factor}` } };
}

type Figure = { value: string; unit: string; sentence: string; source?: string };

/** The number in the search results with the unit the question asks about ("万亿美元", "trillion"). */
function foundFigure(userText: string, results: readonly PromptToolResult[]): Figure | undefined {
  const asked = /多少\s*(万亿|亿|万)?\s*(美元|元|人民币)?/.exec(userText);
  const unit = asked?.[1] || asked?.[2] ? `${asked?.[1] ?? ''}${asked?.[2] ?? ''}` : /trillion/i.test(userText) ? 'trillion' : undefined;
  if (!unit) return undefined;
  const pattern = new RegExp(`(\\d+(?:\\.\\d+)?)\\s*${unit}`, 'i');
  for (const result of results) {
    if (result.toolName !== 'web_search' || result.outcome.kind !== 'success') continue;
    const lines = result.outcome.text.split('\n');
    for (const [index, line] of lines.entries()) {
      const match = pattern.exec(line);
      if (!match?.[1]) continue;
      const sentence = (line.trim().split(/。|\.(?:\s|$)/).find((part) => pattern.test(part)) ?? line).trim();
      const source = lines.slice(0, index + 1).reverse().find((candidate) => /^\s+https?:\/\//.test(candidate))?.trim().split(' ')[0];
      return { value: match[1], unit, sentence, source };
    }
  }
  return undefined;
}

const isSample = (result: PromptToolResult): boolean => result.outcome.kind === 'success' && /^SAMPLE search results/.test(result.outcome.text);

/**
 * The answer to a turn that searched and then calculated: the figure found (with its source), the arithmetic,
 * the result — and, for sample data, a plain statement that it is sample data. Undefined for any other turn.
 */
export function answerWebTurn(userText: string, results: readonly PromptToolResult[], language: MockLanguage): string | undefined {
  const search = results.find((result) => result.toolName === 'web_search' && result.outcome.kind === 'success');
  const calculation = results.find((result) => result.toolName === 'calculate' && result.outcome.kind === 'success');
  if (!search || !calculation || calculation.outcome.kind !== 'success') return undefined;
  const figure = foundFigure(userText, results);
  const line = calculation.outcome.text.split('\n')[0]?.trim() ?? '';
  const value = line.slice(line.lastIndexOf('=') + 1).trim();
  const factor = /\*\s*([\d.]+)\s*=/.exec(line)?.[1] ?? '';
  const sample = isSample(search);
  if (language === 'zh') {
    const converted = figure?.unit.replace(/美元$/, '元人民币') ?? '';
    return [
      sample ? '（以下依据的是 Sylvan 内置的示例搜索数据，不是实时搜索结果。）' : undefined,
      figure ? `搜索结果显示：${figure.sentence}${figure.source ? `（来源：${figure.source}）` : ''}。` : undefined,
      `按 ${factor} 的汇率换算：${line}，约合 **${value} ${converted}**。`,
      sample ? '这些数字是示例数据；要查实时数据，请设置 TAVILY_API_KEY、BRAVE_API_KEY 或 SEARXNG_URL。' : undefined,
    ].filter(Boolean).join('\n');
  }
  return [
    sample ? '(This is based on Sylvan\'s built-in SAMPLE search data, not a live search.)' : undefined,
    figure ? `The search results say: ${figure.sentence}${figure.source ? ` (source: ${figure.source})` : ''}.` : undefined,
    `Converted at ${factor}: ${line}, so about **${value}**.`,
    sample ? 'These figures are sample data; for live search set TAVILY_API_KEY, BRAVE_API_KEY or SEARXNG_URL.' : undefined,
  ].filter(Boolean).join('\n');
}

/** One web result on its own: the search hits listed, or the start of the fetched page. */
export function answerWebResult(result: PromptToolResult, text: string, language: MockLanguage): string {
  const zh = language === 'zh';
  if (result.toolName === 'web_search') {
    const hits = text.split('\n').filter((line) => /^\d+\. /.test(line));
    const urls = text.split('\n').filter((line) => /^\s+https?:\/\//.test(line)).map((line) => line.trim());
    const list = hits.map((hit, index) => `${hit}${urls[index] ? ` — ${urls[index]}` : ''}`).join('\n');
    const sampleNote = isSample(result) ? (zh ? '（示例数据，不是实时搜索）' : ' (sample data, not a live search)') : '';
    if (hits.length === 0) return zh ? `没有搜到结果${sampleNote}。` : `The search found nothing${sampleNote}.`;
    return zh ? `搜索到 ${hits.length} 条结果${sampleNote}：\n${list}` : `The search found ${hits.length} result(s)${sampleNote}:\n${list}`;
  }
  const [heading = '', ...body] = text.split('\n');
  const excerpt = body.join('\n').trim().slice(0, 600);
  return zh ? `我读取了这个网页：${heading}\n\n${excerpt}` : `I read the page: ${heading}\n\n${excerpt}`;
}
