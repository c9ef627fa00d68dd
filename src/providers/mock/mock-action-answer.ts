import type { MockLanguage, PromptToolResult } from './mock-prompt.ts';

const SHOWN_LINES = 15;

/** Answers a run_command, edit_file or search_files result; undefined for other tools. Pure. */
export function answerAction(result: PromptToolResult, text: string, language: MockLanguage): string | undefined {
  const zh = language === 'zh';
  switch (result.toolName) {
    case 'run_command': {
      const [status = '', ...rest] = text.split('\n');
      const command = String(result.input.command ?? '');
      const body = rest.slice(0, SHOWN_LINES).join('\n');
      const more = rest.length > SHOWN_LINES ? (zh ? `\n（还有 ${rest.length - SHOWN_LINES} 行输出没有显示。）` : `\n(${rest.length - SHOWN_LINES} more lines of output not shown.)`) : '';
      const heading = zh ? `运行了 \`${command}\`：${status}` : `Ran \`${command}\`: ${status}`;
      return `${heading}\n\n\`\`\`\n${body}\n\`\`\`${more}`;
    }
    case 'edit_file':
      return zh ? `好的，改好了：${text}` : `Done — ${text}`;
    case 'search_files': {
      const lines = text.split('\n');
      const shown = lines.slice(0, SHOWN_LINES + 1).join('\n');
      const more = lines.length > SHOWN_LINES + 1 ? (zh ? `\n……还有 ${lines.length - SHOWN_LINES - 1} 行。` : `\n…and ${lines.length - SHOWN_LINES - 1} more lines.`) : '';
      return `${zh ? '搜索结果：' : 'Search results:'}\n\n\`\`\`\n${shown}\n\`\`\`${more}`;
    }
    default:
      return undefined;
  }
}

/** How a denied or failed action is named: "运行 `npm test`" / "run `npm test`". Undefined for other tools. */
export function describeActionCall(result: PromptToolResult, language: MockLanguage): string | undefined {
  const zh = language === 'zh';
  const input = result.input;
  switch (result.toolName) {
    case 'run_command':
      return zh ? `运行 \`${String(input.command ?? '')}\`` : `run \`${String(input.command ?? '')}\``;
    case 'edit_file':
      return zh ? `修改 ${String(input.path ?? '文件')}` : `edit ${String(input.path ?? 'the file')}`;
    case 'search_files':
      return zh ? `搜索 ${String(input.pattern ?? '')}` : `search for ${String(input.pattern ?? '')}`;
    default:
      return undefined;
  }
}
