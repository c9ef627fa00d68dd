import type { ModelMessage } from 'ai';
import { isCompactionSummary } from '../shared/compaction-summary.ts';

export interface SessionHeading {
  sessionId: string;
  model: string;
  /** The workspace. */
  folder: string;
  exportedAt: Date;
  /** The subagents' own conversations, by the `task` call that started each: folded under that call. */
  subagents?: ReadonlyMap<string, { agentId: string; messages: readonly ModelMessage[] }>;
}

const SUMMARY_CHARS = 80;

type Part = { type: string; [key: string]: unknown };

/**
 * A conversation as Markdown to read: each user turn under "## You", each answer under
 * "## Sylvan", every tool call with its result folded into a `<details>` block (closed until
 * clicked where Markdown renders HTML), reasoning folded the same way. The text is as it is in the
 * history: the caller redacts keys and neutralises control characters. Never throws.
 */
export function sessionMarkdown(messages: readonly ModelMessage[], heading: SessionHeading): string {
  const blocks: string[] = [
    `# Sylvan session ${heading.sessionId}`,
    `Model ${heading.model} · folder \`${heading.folder}\` · exported ${heading.exportedAt.toISOString()}`,
    ...conversationBlocks(messages, { you: '## You', answer: '## Sylvan' }, heading.subagents),
  ];
  return `${blocks.join('\n\n')}\n`;
}

/** The blocks of one conversation: the main one, or a subagent's (its prompt and answers under smaller headings). */
function conversationBlocks(messages: readonly ModelMessage[], headings: { you: string; answer: string }, subagents?: SessionHeading['subagents']): string[] {
  const results = toolResults(messages);
  const blocks: string[] = [];
  let answering = false;
  for (const message of messages) {
    if (message.role === 'user') {
      answering = false;
      const text = partsOf(message.content).map(textOf).filter(Boolean).join('\n\n');
      blocks.push(isCompactionSummary(message) ? `## Summary of the earlier conversation\n\n${text}` : `${headings.you}\n\n${text}`);
    } else if (message.role === 'assistant') {
      if (!answering) blocks.push(headings.answer);
      answering = true;
      for (const part of partsOf(message.content)) {
        if (part.type === 'text' && typeof part.text === 'string' && part.text.trim() !== '') blocks.push(part.text.trim());
        else if (part.type === 'reasoning' && typeof part.text === 'string' && part.text.trim() !== '') blocks.push(folded('thinking', part.text.trim()));
        else if (part.type === 'tool-call') {
          blocks.push(toolCallBlock(part, results.get(String(part.toolCallId))));
          const subagent = subagents?.get(String(part.toolCallId));
          if (subagent) {
            const inner = conversationBlocks(subagent.messages, { you: '#### Prompt', answer: `#### ${subagent.agentId}` });
            blocks.push(folded(`subagent ${subagent.agentId}: its own conversation`, inner.join('\n\n')));
          }
        }
      }
    }
  }
  return blocks;
}

function partsOf(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content.filter((part) => typeof part === 'object' && part !== null) as Part[]) : [];
}

function textOf(part: Part): string {
  if (part.type === 'text' && typeof part.text === 'string') return part.text;
  if (part.type === 'image' || part.type === 'file') return `[${part.type}]`;
  return '';
}

/** Each tool call's result, by call id (results come in the `tool` message after the call). */
function toolResults(messages: readonly ModelMessage[]): Map<string, Part> {
  const results = new Map<string, Part>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of partsOf(message.content)) if (part.type === 'tool-result') results.set(String(part.toolCallId), part);
  }
  return results;
}

function toolCallBlock(call: Part, result: Part | undefined): string {
  const input = JSON.stringify(call.input ?? {}, null, 2) ?? '{}';
  const outcome = result ? resultText(result.output) : { failed: false, text: '(no result)' };
  const summary = `${outcome.failed ? '✗' : '⏺'} ${String(call.toolName)}(${oneLineInput(call.input)})`;
  return folded(summary, `${fenced(input, 'json')}\n\n${outcome.failed ? 'Error:' : 'Result:'}\n\n${fenced(outcome.text)}`);
}

/** `path: "a.txt", limit: 20`, cut to one short line. */
function oneLineInput(input: unknown): string {
  const entries = input !== null && typeof input === 'object' && !Array.isArray(input) ? Object.entries(input) : [];
  const line = entries.map(([key, value]) => `${key}: ${JSON.stringify(value) ?? ''}`).join(', ').replace(/\s+/g, ' ');
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}

function resultText(output: unknown): { failed: boolean; text: string } {
  const value = output as { type?: string; value?: unknown; reason?: string } | undefined;
  switch (value?.type) {
    case 'text':
      return { failed: false, text: String(value.value) };
    case 'error-text':
      return { failed: true, text: String(value.value) };
    case 'json':
      return { failed: false, text: JSON.stringify(value.value, null, 2) ?? '' };
    case 'error-json':
      return { failed: true, text: JSON.stringify(value.value, null, 2) ?? '' };
    case 'execution-denied':
      return { failed: true, text: `denied${value.reason ? `: ${value.reason}` : ''}` };
    case 'content':
      return { failed: false, text: (Array.isArray(value.value) ? (value.value as Part[]) : []).map((part) => (part.type === 'text' ? String(part.text) : `[${part.type}]`)).join('\n') };
    default:
      return { failed: false, text: JSON.stringify(output) ?? '' };
  }
}

/** A `<details>` block: its summary escaped for HTML, blank lines around the Markdown inside. */
function folded(summary: string, body: string): string {
  const escaped = summary.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<details><summary>${escaped}</summary>\n\n${body}\n\n</details>`;
}

/** A code fence longer than any run of backticks inside. */
function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text.replace(/\n$/, '')}\n${fence}`;
}
