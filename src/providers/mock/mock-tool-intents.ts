import type { AvailableTools, PlannedToolCall } from './mock-intent-types.ts';
import { findActionIntent } from './mock-action-intents.ts';
import { findExpression } from './mock-expression.ts';
import { findWebIntents, withWebIntents } from './mock-web-intents.ts';
import {
  extractChineseWeatherPlaces,
  extractEnglishWeatherPlaces,
  findKnownPlaces,
  lookUpPlace,
} from './mock-places.ts';

export type { AvailableTools, PlannedToolCall };

/** What the user's words ask for: tool calls in the order they were asked, and needs the mock could not serve. */
export type ToolIntents = {
  calls: PlannedToolCall[];
  /** Tools the message needs but the call did not offer. */
  missingTools: string[];
  /** The message asks about the weather but names no city. */
  weatherWithoutCity: boolean;
};

type Found = { index: number; call: PlannedToolCall };

const WEATHER_WORDS = /天气|气温|温度|下雨|下雪|刮风|weather|temperature|forecast|\brain(?:ing|y)?\b|\bsnow(?:ing|y)?\b/i;
const WEAK_WEATHER_WORDS = /冷不冷|热不热|多少度|\bhot\b|\bcold\b|\bwarm\b/i;
const TIME_WORDS =
  /几点|时间|日期|几号|星期几|礼拜几|周几|what time|time is it|current time|the time\b|what(?:'s| is) the date|today'?s date|\bdate today\b|what day is/i;
const READ_VERBS = /读|查看|打开|看看|看一下|显示|内容|里有什么|里面有什么|\bread\b|\bshow\b|\bopen\b|\bcat\b|\bview\b|\bprint\b|what'?s in\b|contents? of/i;
const LIST_WORDS =
  /列出|列一下|列举|有哪些文件|有什么文件|哪些文件|文件列表|目录|文件夹|list (?:the )?(?:files|contents|directory|folder)|\blist\b.*\bfiles?\b|\bls\b|what files|which files|show (?:me )?(?:the )?files/i;
const WRITE_VERBS = /写入|写到|写进|写上|写|保存|存到|存为|创建|新建|\bwrite\b|\bsave\b|\bcreate\b|\bput\b/i;
const PATH_TOKEN = /[A-Za-z0-9_.\-~@/\\]+/g;
const QUOTED = /"([^"]*)"|'([^']*)'|“([^”]*)”|‘([^’]*)’|「([^」]*)」|`([^`]*)`/;
const EXTENSIONLESS_FILES = /^(?:README|LICENSE|Makefile|Dockerfile|CHANGELOG)$/;
const NOT_A_FOLDER = new Set(['current', 'this', 'the', 'project', 'workspace', 'root', 'here', 'my', 'a', 'all']);

/**
 * The tool calls a user message asks for, limited to the tools offered; several intents in one message
 * give several calls. `previousUserText` lets a bare follow-up ("那上海呢？") reuse the earlier weather intent. Pure.
 */
export function detectToolIntents(text: string, tools: AvailableTools, previousUserText = ''): ToolIntents {
  const action = findActionIntent(text);
  if (action) {
    const offered = tools.has(action.toolName);
    return { calls: offered ? [action] : [], missingTools: offered ? [] : [action.toolName], weatherWithoutCity: false };
  }
  const web = findWebIntents(text, tools);
  return withWebIntents(detectLocalIntents(web.rest, tools, previousUserText), web);
}

function detectLocalIntents(text: string, tools: AvailableTools, previousUserText: string): ToolIntents {
  const found: Found[] = [];
  const write = findWrite(text);
  // The text being written is data, not a request: "写入 1+1 到 a.txt" must not also calculate.
  const rest = write ? text.replace(write.content, ' '.repeat(write.content.length)) : text;
  if (write) found.push(write.found);

  const weather = findWeather(rest, previousUserText);
  found.push(...weather.found);
  const expression = findExpression(rest);
  if (expression) found.push({ index: expression.index, call: { toolName: 'calculate', input: { expression: expression.expression } } });
  const time = findTime(rest, tools);
  if (time) found.push(time);
  const list = findList(rest);
  if (list) found.push(list);
  found.push(...findReads(rest, [write?.path, list?.call.input.path]));

  found.sort((left, right) => left.index - right.index);
  const calls = found.map((entry) => entry.call).filter((call) => tools.has(call.toolName));
  const missingTools = [...new Set(found.map((entry) => entry.call.toolName).filter((name) => !tools.has(name)))];
  return { calls, missingTools, weatherWithoutCity: weather.withoutCity };
}

function findWeather(text: string, previousUserText: string): { found: Found[]; withoutCity: boolean } {
  const strong = WEATHER_WORDS.exec(text);
  const weak = WEAK_WEATHER_WORDS.exec(text);
  const known = findKnownPlaces(text);
  const isFollowUp = !strong && !weak && known.length > 0 && WEATHER_WORDS.test(previousUserText) && isShortFollowUp(text);
  if (!strong && !weak && !isFollowUp) return { found: [], withoutCity: false };

  let places = known.map((mention) => ({ name: mention.name, index: mention.index }));
  if (places.length === 0 && strong) {
    const names = [...extractChineseWeatherPlaces(text), ...extractEnglishWeatherPlaces(text)];
    places = names.map((name) => ({ name, index: Math.max(text.indexOf(name), 0) }));
  }
  return {
    found: places.map((place) => ({ index: place.index, call: { toolName: 'get_weather', input: { city: place.name } } })),
    withoutCity: places.length === 0 && strong !== null,
  };
}

/** "那上海呢？" / "and Tokyo?" — a short message that only swaps the city. */
function isShortFollowUp(text: string): boolean {
  return text.length <= 24 && /呢|怎么样|如何|\bwhat about\b|\bhow about\b|\band\b|^\s*\S+\s*\?\s*$/i.test(text);
}

function findTime(text: string, tools: AvailableTools): Found | undefined {
  const match = TIME_WORDS.exec(text);
  if (!match) return undefined;
  const input: Record<string, unknown> = {};
  const zone = /\b[A-Z][a-z]+\/[A-Z][A-Za-z_]+\b|\bUTC\b/.exec(text)?.[0] ?? findKnownPlaces(text)[0]?.place.timeZone;
  if (zone && tools.get('current_time')?.has('timezone')) input.timezone = zone;
  return { index: match.index, call: { toolName: 'current_time', input } };
}

function findList(text: string): Found | undefined {
  const match = LIST_WORDS.exec(text);
  if (!match) return undefined;
  const named =
    /([A-Za-z0-9_.\-/]+)\s*(?:目录|文件夹|下|里)/.exec(text)?.[1] ??
    /\b(?:in|of|under|inside)\s+(?:the\s+)?([A-Za-z0-9_.\-/]+)/i.exec(text)?.[1] ??
    /\bls\s+([A-Za-z0-9_.\-/]+)/.exec(text)?.[1];
  const path = named && !NOT_A_FOLDER.has(named.toLowerCase()) && !/^\d+$/.test(named) ? named : undefined;
  return { index: match.index, call: { toolName: 'list_files', input: path ? { path } : {} } };
}

function findReads(text: string, taken: ReadonlyArray<unknown>): Found[] {
  const verb = READ_VERBS.exec(text);
  if (!verb) return [];
  return pathTokens(text)
    .filter((token) => !taken.includes(token.path) && !lookUpPlace(token.path))
    .map((token) => ({ index: token.index, call: { toolName: 'read_file', input: { path: token.path } } }));
}

function findWrite(text: string): { found: Found; path: string; content: string } | undefined {
  const verb = WRITE_VERBS.exec(text);
  if (!verb) return undefined;
  const paths = pathTokens(text);
  const target =
    paths.find((token) => /(?:到|进|为|成|\bto|\binto|\bas|\bnamed|\bcalled)\s*$/i.test(text.slice(0, token.index))) ??
    paths.find((token) => token.index > verb.index) ??
    paths[0];
  if (!target) return undefined;

  const quoted = QUOTED.exec(text);
  const quotedContent = quoted?.slice(1).find((group) => group !== undefined);
  const content = quotedContent ?? contentAfterMarker(text) ?? contentBetween(text, verb, target.index) ?? '';
  return {
    found: { index: verb.index, call: { toolName: 'write_file', input: { path: target.path, content } } },
    path: target.path,
    content,
  };
}

function contentAfterMarker(text: string): string | undefined {
  const match = /(?:内容是|内容为|内容[:：]|写上|with (?:the )?(?:content|text)|containing|that says|saying|\bwith)\s*[:：]?\s*(.+)$/i.exec(text);
  return match?.[1] ? stripEnds(match[1]) || undefined : undefined;
}

function contentBetween(text: string, verb: RegExpExecArray, pathIndex: number): string | undefined {
  if (pathIndex <= verb.index) return undefined;
  const between = text.slice(verb.index + verb[0].length, pathIndex);
  const content = stripEnds(between.replace(/(?:到|进|为|成|文件|\bto|\binto|\bthe file|\ba file|\bfile|\bas)\s*$/gi, ''));
  return content || undefined;
}

function stripEnds(text: string): string {
  return text.replace(/^[\s:：,，]+|[\s。.!！?？,，]+$/g, '');
}

/** Tokens that look like file paths: a dot-extension (package.json) or a slash (src/cli.ts). */
function pathTokens(text: string): Array<{ path: string; index: number }> {
  const tokens: Array<{ path: string; index: number }> = [];
  for (const match of text.matchAll(PATH_TOKEN)) {
    const path = match[0].replace(/[.,]+$/, '');
    const looksLikeFile =
      /\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(path) || /[/\\]/.test(path) || EXTENSIONLESS_FILES.test(path);
    if (looksLikeFile && /[A-Za-z]/.test(path) && !/^(?:https?:|www\.)/i.test(path) && !/^[a-z]\.[a-z]\.?$/i.test(path)) {
      tokens.push({ path, index: match.index ?? 0 });
    }
  }
  return tokens;
}
