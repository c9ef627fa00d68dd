import { shorten } from './mock-answer.ts';
import type { HistoryEntry, MockLanguage, PromptToolResult } from './mock-prompt.ts';
import { SUMMARY_PREFIX } from './mock-prompt.ts';

const CONNECT_HINT = {
  zh: '想接入真正的模型，在 .env 里设置 DASHSCOPE_API_KEY（通义千问）或 OPENAI_API_KEY 即可。',
  en: 'To talk to a real model, set DASHSCOPE_API_KEY (Qwen) or OPENAI_API_KEY in .env.',
};

const EXAMPLES: ReadonlyArray<{ tools: readonly string[]; zh: string; en: string }> = [
  { tools: ['get_weather'], zh: '查天气：「北京今天天气怎么样？」', en: 'weather: "What\'s the weather in London?"' },
  { tools: ['calculate'], zh: '算数：「(2+3)*4 等于多少？」', en: 'arithmetic: "What is (2+3)*4?"' },
  { tools: ['current_time'], zh: '看时间：「现在几点？」', en: 'time: "What time is it?"' },
  {
    tools: ['read_file', 'list_files', 'write_file'],
    zh: '文件：「帮我读一下 package.json」「列出 src 目录下的文件」',
    en: 'files: "Read package.json", "List the files in src"',
  },
  {
    tools: ['run_command', 'edit_file', 'search_files'],
    zh: '动手：「运行 `ls -la`」「把 foo 改成 bar（在 notes.txt 里）」「在代码里搜索 TODO」',
    en: 'act: "run `ls -la`", "replace foo with bar in notes.txt", "search the code for TODO"',
  },
];

/** A short intro: what the mock is, what it can do with the offered tools, and how to connect a real model. */
export function greetingText(toolNames: ReadonlySet<string>, language: MockLanguage): string {
  const intro = language === 'zh'
    ? '你好！我是 Sylvan 的离线模拟模型（mock）：没有连接真正的大模型，但能演示完整的工具调用流程。'
    : "Hi! I'm Sylvan's offline mock model: no real AI behind me, but I can walk through the full tool-calling loop.";
  return `${intro}\n${examplesText(toolNames, language)}\n\n${CONNECT_HINT[language]}`;
}

/** The answer to anything the mock cannot recognise: honest about being the mock, with things to try. */
export function fallbackText(userText: string, toolNames: ReadonlySet<string>, language: MockLanguage): string {
  const quoted = shorten(userText, 40);
  const admission = language === 'zh'
    ? `我是离线模拟模型，只认得几类固定的请求，没法真正回答「${quoted}」。`
    : `I'm the offline mock model, so I only recognise a few kinds of requests and can't really answer "${quoted}".`;
  return `${admission}\n${examplesText(toolNames, language)}\n\n${CONNECT_HINT[language]}`;
}

function examplesText(toolNames: ReadonlySet<string>, language: MockLanguage): string {
  const examples = EXAMPLES.filter((example) => example.tools.some((name) => toolNames.has(name)));
  if (examples.length === 0) {
    return language === 'zh' ? '（这次对话没有启用任何工具。）' : '(No tools are enabled in this conversation.)';
  }
  const heading = language === 'zh' ? '你可以试试：' : 'You can try:';
  return `${heading}\n${examples.map((example) => `- ${example[language]}`).join('\n')}`;
}

/** The reply when a /compact summary is handed over on its own. */
export function summaryAcknowledgementText(language: MockLanguage): string {
  return language === 'zh' ? '好的，我会在这份摘要的基础上继续。' : "Got it — I'll continue from this summary.";
}

/** The reply to thanks: short, and inviting the next request. */
export function thanksText(language: MockLanguage): string {
  return language === 'zh' ? '不客气！还有什么想试试的吗？' : "You're welcome! Anything else you'd like to try?";
}

/** Asks which city, for a weather question that names none. */
export function askCityText(language: MockLanguage): string {
  return language === 'zh'
    ? '你想查哪个城市的天气？比如「北京今天天气怎么样？」'
    : 'Which city would you like the weather for? For example: "What\'s the weather in London?"';
}

/** Says the request needs tools this conversation does not offer. */
export function missingToolsText(toolNames: readonly string[], language: MockLanguage): string {
  const names = toolNames.join(language === 'zh' ? '、' : ', ');
  return language === 'zh'
    ? `这个请求需要 ${names} 工具，但这次对话没有启用它，所以我没法替你去做，也不会编造结果。`
    : `That needs the ${names} tool, which isn't enabled in this conversation, so I can't do it — and I won't make up a result.`;
}

/** Answers "what did I ask earlier?" from the earlier user messages and any /compact summary. */
export function recallText(history: readonly HistoryEntry[], earlierSummary: string | undefined, language: MockLanguage): string {
  const questions = history.flatMap((entry) => (entry.kind === 'user' ? [shorten(entry.text, 120)] : []));
  const numbered = questions.map((question, index) => `${index + 1}. ${question}`).join('\n');
  const summaryBody = earlierSummary ? summaryBullets(earlierSummary).join('\n') : undefined;
  if (language === 'zh') {
    if (!summaryBody && questions.length === 0) return '这是我们对话里的第一个问题，你之前还没有问过别的。';
    const parts = [
      summaryBody ? `更早的对话已经压缩成了摘要：\n${summaryBody}` : undefined,
      questions.length > 0 ? `${summaryBody ? '之后你又问了' : '你之前问过这些'}：\n${numbered}` : undefined,
    ];
    return parts.filter((part) => part !== undefined).join('\n\n');
  }
  if (!summaryBody && questions.length === 0) return "This is the first thing you've asked in our conversation.";
  const parts = [
    summaryBody ? `Our earlier conversation was compacted into this summary:\n${summaryBody}` : undefined,
    questions.length > 0 ? `${summaryBody ? 'After that you asked' : 'Earlier you asked'}:\n${numbered}` : undefined,
  ];
  return parts.filter((part) => part !== undefined).join('\n\n');
}

/**
 * The /compact summary: "Summary of the earlier conversation:" then the bullets of any earlier summary, one bullet per
 * user message (about 80 characters) and one short line per tool result, oldest first. Deterministic.
 */
export function summaryText(history: readonly HistoryEntry[], earlierSummary: string | undefined): string {
  const bullets = [
    ...(earlierSummary ? summaryBullets(earlierSummary) : []),
    ...history.map((entry) => (entry.kind === 'user' ? `- User asked: ${shorten(entry.text, 80)}` : `- ${describeResult(entry.result)}`)),
  ];
  return `${SUMMARY_PREFIX}:\n${bullets.length > 0 ? bullets.join('\n') : '- Nothing yet.'}`;
}

function describeResult(result: PromptToolResult): string {
  const firstValue = Object.values(result.input).find((value) => typeof value === 'string');
  const call = `${result.toolName}${typeof firstValue === 'string' ? `(${shorten(firstValue, 30)})` : ''}`;
  switch (result.outcome.kind) {
    case 'success':
      return `${call}: ${shorten(result.outcome.text.split(/\n|(?<=\.)\s/)[0] ?? '', 120)}`;
    case 'error':
      return `${call} failed: ${shorten(result.outcome.text, 80)}`;
    case 'denied':
      return `${call} was not approved; nothing was changed.`;
  }
}

/** The bullet lines of an earlier summary, without its heading. */
function summaryBullets(summary: string): string[] {
  const body = summary.slice(summary.indexOf(SUMMARY_PREFIX) + SUMMARY_PREFIX.length).replace(/^[\s:：]+/, '');
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => (line.startsWith('-') ? line : `- ${line}`));
}
