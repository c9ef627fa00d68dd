import type { PlannedToolCall } from './mock-intent-types.ts';

/**
 * The mock model's "do" intents, one per message: run a command, replace text in a file, search
 * the code. Checked before the other intents, because their words ("run `cat a.txt`", "replace
 * 1+1 with 2 in a.txt") would otherwise read as other requests. Pure.
 */

/** A quoted piece of text in any of the quotes people type: "…", '…', “…”, ‘…’, 「…」, `…`. */
const QUOTED = String.raw`"([^"]+)"|'([^']+)'|“([^”]+)”|‘([^’]+)’|「([^」]+)」|\x60([^\x60]+)\x60`;
const TEXT = `(?:${QUOTED}|(\\S+?))`;
const WORD = `(?:${QUOTED}|(\\S+))`;
const FILE = String.raw`([A-Za-z0-9_.\-/\\]+\.[A-Za-z0-9]{1,10}|[A-Za-z0-9_.\-/\\]*/[A-Za-z0-9_.\-]+)`;

const RUN = /(?:运行|执行|跑一下|跑|\brun\b|\bexecute\b)\s*(?:命令|command)?\s*[:：]?\s*`([^`]+)`/i;
/**
 * A whole message that is the verb and a bare command line, as people type it when the backticks of
 * the suggestion did not come along: 运行 ls -la, 帮我执行 npm test, run ls -la. The command starts
 * with a program-like word (ASCII), so "run the tests" or "运行结果怎么样" is not one.
 */
const RUN_BARE_ZH = /^\s*(?:请|帮我|麻烦)?\s*(?:运行|执行|跑一下)(?:一下)?\s*(?:命令)?\s*[:：]?\s*([A-Za-z0-9./~_-][^\n]*?)\s*[。.!！]?\s*$/;
const RUN_BARE_EN = /^\s*(?:please\s+)?(?:run|execute)\s+(?:the\s+command\s+|command\s+)?[:：]?\s*(?!(?:the|a|an|my|this|that|it|all|some|them|tests?|again)\b)([A-Za-z0-9./~_-][^\n]*?)\s*[.!]?\s*$/i;
const REPLACE_ZH = new RegExp(`把\\s*${TEXT}\\s*(?:改成|改为|替换成|替换为|换成)\\s*${TEXT}\\s*[（(]?\\s*在\\s*${FILE}\\s*(?:文件)?(?:里|中|里面)?`);
const REPLACE_ZH_FILE_FIRST = new RegExp(`在\\s*${FILE}\\s*(?:文件)?(?:里|中|里面)?\\s*[，,]?\\s*把\\s*${TEXT}\\s*(?:改成|改为|替换成|替换为|换成)\\s*${TEXT}`);
const REPLACE_EN = new RegExp(`\\breplace\\s+${TEXT}\\s+with\\s+${TEXT}\\s+in\\s+(?:the\\s+file\\s+)?${FILE}`, 'i');
const SEARCH = new RegExp(
  `(?:在代码(?:里|中)搜索|在代码(?:里|中)查找|搜索代码|在项目(?:里|中)搜索|\\bsearch\\s+(?:the\\s+)?(?:code|files|codebase|project|workspace)\\s+for|\\bgrep\\s+(?:for\\s+)?)\\s*[:：]?\\s*${WORD}`,
  'i',
);

/** A text group's value: whichever of the quoted alternatives or the bare word matched. */
function textAt(match: RegExpExecArray, start: number): string | undefined {
  for (let group = start; group < start + 7; group++) if (match[group] !== undefined) return match[group];
  return undefined;
}

/** Characters special in a regular expression, escaped so the search finds the text literally. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The "do" call the message asks for, if any. */
export function findActionIntent(text: string): PlannedToolCall | undefined {
  const run = RUN.exec(text) ?? RUN_BARE_ZH.exec(text) ?? RUN_BARE_EN.exec(text);
  if (run?.[1]) return { toolName: 'run_command', input: { command: run[1].trim() } };

  const zh = REPLACE_ZH.exec(text);
  if (zh) return replaceCall(zh[15], textAt(zh, 1), textAt(zh, 8));
  const zhFileFirst = REPLACE_ZH_FILE_FIRST.exec(text);
  if (zhFileFirst) return replaceCall(zhFileFirst[1], textAt(zhFileFirst, 2), textAt(zhFileFirst, 9));
  const en = REPLACE_EN.exec(text);
  if (en) return replaceCall(en[15], textAt(en, 1), textAt(en, 8));

  const search = SEARCH.exec(text);
  const pattern = search ? textAt(search, 1)?.replace(/[。.!！?？,，]+$/, '') : undefined;
  if (pattern) return { toolName: 'search_files', input: { pattern: literal(pattern) } };
  return undefined;
}

function replaceCall(path: string | undefined, oldText: string | undefined, newText: string | undefined): PlannedToolCall | undefined {
  if (!path || oldText === undefined || newText === undefined) return undefined;
  return { toolName: 'edit_file', input: { path, old_text: oldText, new_text: newText } };
}
