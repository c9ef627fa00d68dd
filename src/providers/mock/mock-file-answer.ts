import type { MockLanguage } from './mock-prompt.ts';

const EXCERPT_LINES = 12;
const LIST_LINES = 15;
const NUMBERED_LINE = /^\s*\d+\t/;

/**
 * Answers a read_file result ("package.json (42 lines, 1.2 kB)" then numbered lines): the path, a short excerpt in
 * a code block, how much was left out, and a one-line gist of a package.json. Pure.
 */
export function answerRead(text: string, path: string, language: MockLanguage): string {
  const lines = text.split('\n');
  const numbered = lines.filter((line) => NUMBERED_LINE.test(line));
  if (text.includes('[the file is empty]')) return language === 'zh' ? `${path} 是个空文件。` : `${path} is empty.`;
  if (numbered.length === 0 && lines.length === 1) return `${path}：${text}`;

  const content = numbered.length > 0 ? numbered.map((line) => line.replace(NUMBERED_LINE, '')) : lines;
  const totalLines = Number((/\(([\d,]+) lines?,/.exec(lines[0] ?? '')?.[1] ?? '').replace(/,/g, '')) || content.length;
  const fence = '```' + (/\.(\w+)$/.exec(path)?.[1] ?? '');
  const excerpt = content.slice(0, EXCERPT_LINES).join('\n');
  const shownLines = Math.min(EXCERPT_LINES, content.length);
  const omitted =
    totalLines > shownLines
      ? language === 'zh'
        ? `\n（共 ${totalLines} 行，这里只显示前 ${shownLines} 行。）`
        : `\n(${totalLines} lines in all; showing the first ${shownLines}.)`
      : '';
  const gist = describePackage(content.join('\n'), language);
  const heading = language === 'zh' ? `${path} 的内容如下：` : `Here's ${path}:`;
  return `${heading}\n\n${fence}\n${excerpt}\n\`\`\`${omitted}${gist ? `\n${gist}` : ''}`;
}

/** A one-line gist when the file is a package.json the mock can parse. */
function describePackage(text: string, language: MockLanguage): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !('name' in parsed) || typeof parsed.name !== 'string') return undefined;
  const version = 'version' in parsed && typeof parsed.version === 'string' ? parsed.version : undefined;
  const dependencies =
    'dependencies' in parsed && typeof parsed.dependencies === 'object' && parsed.dependencies !== null
      ? Object.keys(parsed.dependencies)
      : [];
  if (language === 'zh') {
    return `这是 ${parsed.name}${version ? `（版本 ${version}）` : ' '}的包配置${dependencies.length > 0 ? `，依赖有 ${dependencies.join('、')}` : ''}。`;
  }
  return `It's the manifest of ${parsed.name}${version ? ` ${version}` : ''}${dependencies.length > 0 ? `, depending on ${dependencies.join(', ')}` : ''}.`;
}

/** Answers a list_files result ("3 entries under src/" then one entry a line, then notes). Pure. */
export function answerList(text: string, path: string | undefined, language: MockLanguage): string {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const header = /^(?:at least )?([\d,]+) (?:entries|entry)(?: matching "([^"]*)")? under (.+)$/.exec(lines[0] ?? '');
  const isEmpty = !header && /(?:is empty|^No entries\b.*)$/.test(lines[0] ?? '');
  const entries = isEmpty ? [] : (header ? lines.slice(1) : lines).filter((line) => !line.startsWith('[') && !line.startsWith('…'));
  const total = header ? Number(header[1]?.replace(/,/g, '')) : entries.length;
  const where = header?.[3] === 'the workspace root' ? undefined : (header?.[3] ?? path);
  if (entries.length === 0) {
    return language === 'zh' ? `${where ?? '工作区'} 下没有找到文件（${lines[0] ?? '空'}）。` : `Nothing to list: ${lines[0] ?? 'no entries'}.`;
  }
  const shown = entries.slice(0, LIST_LINES).map((entry) => `- ${entry}`).join('\n');
  const hidden = total - Math.min(LIST_LINES, entries.length);
  const pattern = header?.[2];
  if (language === 'zh') {
    const heading = `${where ?? '工作区根目录'} 下共有 ${total} 项${pattern ? `（匹配 "${pattern}"）` : ''}：`;
    return `${heading}\n${shown}${hidden > 0 ? `\n……还有 ${hidden} 项没有列出。` : ''}`;
  }
  const heading = `${total} ${total === 1 ? 'entry' : 'entries'}${pattern ? ` matching "${pattern}"` : ''} in ${where ?? 'the workspace root'}:`;
  return `${heading}\n${shown}${hidden > 0 ? `\n…and ${hidden} more.` : ''}`;
}

/** Answers a write_file result ("Wrote notes.txt (1 line, 11 bytes)" or "Overwrote …"). Pure. */
export function answerWrite(text: string, path: string, language: MockLanguage): string {
  const line = (text.split('\n')[0] ?? '').trim();
  const match = /^(Wrote|Overwrote) (.+?) \(([\d,]+) lines?, ([\d,]+) bytes?\)/.exec(line);
  if (language === 'en') return `Done — ${match ? line.charAt(0).toLowerCase() + line.slice(1) : line}.`.replace(/\.\.$/, '.');
  if (!match) return `好的，已经写入 ${path}：${line}`;
  const verb = match[1] === 'Overwrote' ? '覆盖写入了' : '写入了';
  return `好的，已经${verb} ${match[2]}（${match[3]} 行，${match[4]} 字节）。`;
}
