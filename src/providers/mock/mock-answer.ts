import { answerAction, describeActionCall } from './mock-action-answer.ts';
import { answerList, answerRead, answerWrite } from './mock-file-answer.ts';
import type { MockLanguage, PromptToolResult } from './mock-prompt.ts';
import { answerWeather } from './mock-weather-answer.ts';
import { answerWebResult } from './mock-web-intents.ts';

/**
 * Phrases an answer from the tool results of the current turn, one paragraph per result, in the user's language.
 * Quotes what the tools returned and never adds data of its own; failures are reported as failures. Pure.
 */
export function answerToolResults(results: readonly PromptToolResult[], language: MockLanguage): string {
  return results.map((result) => answerOne(result, language)).join('\n\n');
}

function answerOne(result: PromptToolResult, language: MockLanguage): string {
  const { outcome } = result;
  if (outcome.kind === 'denied') {
    const action = describeAction(result, language);
    const reason = outcome.reason ? (language === 'zh' ? `（原因：${outcome.reason}）` : ` (reason: ${outcome.reason})`) : '';
    // Chinese sets a trailing file name apart with a space: "写入 notes.txt 的操作".
    return language === 'zh'
      ? `${action}${/[\x21-\x7e]$/.test(action) ? ' ' : ''}的操作没有被批准${reason}，所以我什么都没有改动。`
      : `The request to ${action} was not approved${reason}, so nothing was changed.`;
  }
  if (outcome.kind === 'error') {
    const message = withoutModelInstructions(outcome.text);
    return language === 'zh'
      ? `抱歉，没能${describeAction(result, language)}：${message}`
      : `Sorry, I couldn't ${describeAction(result, language)}: ${message}`;
  }
  const text = outcome.text.trim();
  switch (result.toolName) {
    case 'get_weather':
      return answerWeather(text, stringInput(result, 'city'), language);
    case 'calculate':
      return answerCalculation(text, language);
    case 'current_time':
      return answerTime(firstLine(text), language);
    case 'read_file':
      return answerRead(text, stringInput(result, 'path') ?? 'file', language);
    case 'list_files':
      return answerList(text, stringInput(result, 'path'), language);
    case 'write_file':
      return answerWrite(text, stringInput(result, 'path') ?? 'file', language);
    case 'web_search':
    case 'web_fetch':
      return answerWebResult(result, text, language);
    default:
      return (
        answerAction(result, text, language) ??
        (language === 'zh' ? `${result.toolName} 返回：${shorten(text, 400)}` : `${result.toolName} returned: ${shorten(text, 400)}`)
      );
  }
}

function describeAction(result: PromptToolResult, language: MockLanguage): string {
  const zh = language === 'zh';
  const path = stringInput(result, 'path');
  switch (result.toolName) {
    case 'get_weather': {
      const city = stringInput(result, 'city');
      return zh ? `查到${city ? spaced(city) : ''}的天气` : `get the weather${city ? ` for ${city}` : ''}`;
    }
    case 'calculate': {
      const expression = stringInput(result, 'expression');
      return zh ? `算出${expression ? spaced(expression) : ''}的结果` : `calculate ${expression ?? 'that'}`;
    }
    case 'current_time':
      return zh ? '获取当前时间' : 'get the current time';
    case 'read_file':
      return zh ? `读取 ${path ?? '文件'}` : `read ${path ?? 'the file'}`;
    case 'list_files':
      return zh ? `列出 ${path ?? '当前目录'} 的文件` : `list the files in ${path ?? 'the workspace'}`;
    case 'write_file':
      return zh ? `写入 ${path ?? '文件'}` : `write ${path ?? 'the file'}`;
    case 'web_search':
      return zh ? `搜索「${stringInput(result, 'query') ?? ''}」` : `search for "${stringInput(result, 'query') ?? ''}"`;
    case 'web_fetch':
      return zh ? `打开 ${stringInput(result, 'url') ?? '网页'}` : `fetch ${stringInput(result, 'url') ?? 'the page'}`;
    default:
      return describeActionCall(result, language) ?? (zh ? `调用 ${result.toolName}` : `run ${result.toolName}`);
  }
}

/** Chinese runs words together but sets Latin text and numbers apart with spaces. */
function spaced(word: string): string {
  return /^[\u4e00-\u9fff]+$/.test(word) ? word : ` ${word} `;
}

const WEEKDAYS_IN_CHINESE: Record<string, string> = {
  Monday: '星期一', Tuesday: '星期二', Wednesday: '星期三', Thursday: '星期四', Friday: '星期五', Saturday: '星期六', Sunday: '星期日',
};

/** "2026-11-30 15:04:05 (Monday), Asia/Shanghai (UTC+08:00)" → a sentence; other shapes are quoted. */
function answerTime(line: string, language: MockLanguage): string {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(?::\d{2})?) \((\w+)\), (.+?)(?: \((UTC[^)]*)\))?$/.exec(line);
  if (!match) return language === 'zh' ? `现在是 ${line}。` : `It's currently ${line}.`;
  const [, date, time, weekday = '', zone, offset] = match;
  if (language === 'zh') {
    return `现在是 ${date} ${time}，${WEEKDAYS_IN_CHINESE[weekday] ?? weekday}（${zone}${offset ? `，${offset}` : ''}）。`;
  }
  return `It's ${time} on ${weekday}, ${date} (${zone}${offset ? `, ${offset}` : ''}).`;
}

function answerCalculation(text: string, language: MockLanguage): string {
  const line = firstLine(text);
  const equals = line.lastIndexOf('=');
  const value = equals >= 0 ? line.slice(equals + 1).trim() : '';
  if (!value) return language === 'zh' ? `计算结果：${line}` : `The calculator says: ${line}`;
  return language === 'zh' ? `${line}，结果是 **${value}**。` : `${line}, so the result is **${value}**.`;
}

/** Drops the sentences a tool error addresses to the model ("Tell the user …; do not invent it."). */
function withoutModelInstructions(text: string): string {
  const sentences = text.trim().split(/(?<=[.;])\s+/);
  const kept = sentences.filter((sentence) => !/\b(?:tell the user|do not (?:guess|invent)|never (?:guess|invent)|say so)\b/i.test(sentence));
  return (kept.length > 0 ? kept.join(' ') : text.trim()).replace(/;$/, '.');
}

function stringInput(result: PromptToolResult, key: string): string | undefined {
  const value = result.input[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

/** Cuts text to at most `limit` characters on one line, marking the cut. */
export function shorten(text: string, limit: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= limit ? oneLine : `${oneLine.slice(0, limit - 1)}…`;
}
