import type { ModelMessage } from 'ai';
import type { ChalkInstance } from 'chalk';
import { INTERRUPTED_TOOL_RESULT_TEXT } from '../../agent/context/history-repair.ts';
import { isCompactionSummary } from '../../shared/compaction-summary.ts';
import { splitAttachedFiles } from '../../files/attached-file.ts';
import { layOut } from '../input/layout.ts';
import { TAB_WIDTH } from '../../shared/text/text-width.ts';
import { liveWidth } from './live-area.ts';
import { supportsHyperlinks } from './markdown/render-blocks.ts';
import { MarkdownStream } from './markdown/stream.ts';
import { PROMPT } from './mode-display.ts';
import { chalkFor, type Output } from './render.ts';
import { sanitize, sanitizeLine } from '../../shared/text/sanitize.ts';
import type { ToolCallRecord } from './tool-calls.ts';
import { finishedCallLines } from './collapsed-view.ts';

/** A resumed session shows this many of its latest turns; a line says how many earlier ones are not shown. */
const SHOWN_TURNS = 20;

export interface TranscriptOptions {
  colour: ChalkInstance;
  /** Columns for answers and tool lines (the live renderer's width). */
  width: number;
  /** Columns of the terminal, for the user's lines as the prompt laid them out. */
  columns: number;
  hyperlinks: boolean;
  turns?: number;
}

type Kind = 'user' | 'answer' | 'activity';
type ToolResult = Extract<Extract<ModelMessage, { role: 'tool' }>['content'][number], { type: 'tool-result' }>;

/**
 * A saved conversation as the terminal showed it: each user message on the prompt as typed (the
 * attached files named under it), each answer through the same markdown renderer, each tool call as
 * its `✓ call` line and one-line result. Reasoning is left out. Only the last `turns` turns; a dimmed
 * line above says how many earlier ones are not shown. Everything from the file is sanitised.
 */
export async function transcriptLines(messages: readonly ModelMessage[], options: TranscriptOptions): Promise<string[]> {
  const { colour } = options;
  const starts = messages.flatMap((message, index) => (message.role === 'user' && !isCompactionSummary(message) ? [index] : []));
  const limit = options.turns ?? SHOWN_TURNS;
  const hidden = Math.max(0, starts.length - limit);
  const from = hidden > 0 ? (starts[hidden] as number) : (starts[0] ?? messages.length);

  const lines: string[] = [];
  let last: Kind | undefined;
  const add = (kind: Kind, added: readonly string[]) => {
    if (added.length === 0) return;
    // The live renderer's spacing: a blank line between an answer and activity, and between turns.
    if (last !== undefined && (kind === 'user' || (kind === 'answer') !== (last === 'answer')) && last !== 'user') lines.push('');
    lines.push(...added);
    last = kind;
  };
  if (hidden > 0) lines.push(colour.dim(`… ${hidden} earlier turn${hidden === 1 ? '' : 's'} not shown`));
  else if (messages.slice(0, from).some(isCompactionSummary)) lines.push(colour.dim('(earlier turns were summarised by /compact)'));

  const calls = new Map<string, { toolName: string; input: unknown }>();
  const callLines = (result: ToolResult) => {
    const call = calls.get(result.toolCallId) ?? { toolName: result.toolName, input: undefined };
    const record: ToolCallRecord = { toolCallId: result.toolCallId, ...call, startedAt: 0, endedAt: 0, outcome: outcomeOf(result.output) };
    return finishedCallLines(record, colour, options.width, { timed: false });
  };
  for (const message of messages.slice(from)) {
    if (message.role === 'user') {
      if (isCompactionSummary(message)) continue;
      add('user', userLines(message, options));
    } else if (message.role === 'assistant') {
      let text = '';
      const flush = async () => {
        if (text.trim() !== '') add('answer', await answerLines(text, options));
        text = '';
      };
      for (const part of typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content) {
        if (part.type === 'text') text += part.text;
        else if (part.type === 'tool-call') {
          await flush();
          calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
        } else if (part.type === 'tool-result') {
          await flush();
          add('activity', callLines(part));
        }
      }
      await flush();
    } else if (message.role === 'tool') {
      for (const part of message.content) if (part.type === 'tool-result') add('activity', callLines(part));
    }
  }
  return lines;
}

/** Writes the transcript of a resumed session to a terminal, before its prompt. Never throws. */
export async function replayTranscript(messages: readonly ModelMessage[], output: Output): Promise<void> {
  const colour = chalkFor(output);
  let lines: string[];
  try {
    lines = await transcriptLines(messages, {
      colour,
      width: Math.min(liveWidth(output), 199),
      columns: output.columns || 80,
      hyperlinks: supportsHyperlinks(),
    });
  } catch {
    lines = [colour.dim('(the earlier conversation could not be shown)')];
  }
  if (lines.length > 0) output.write(`${lines.join('\n')}\n\n`);
}

function userLines(message: Extract<ModelMessage, { role: 'user' }>, options: TranscriptOptions): string[] {
  const content =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((part) => (part.type === 'text' ? part.text : part.type === 'image' ? '[image]' : '[file]')).join('\n');
  const { typed, files } = splitAttachedFiles(content);
  const text = sanitize(typed).replace(/\t/g, ' '.repeat(TAB_WIDTH));
  const rows = layOut(PROMPT, text, 0, options.columns).rows;
  if (files.length > 0) rows.push(options.colour.dim(`  attached ${files.map(sanitizeLine).join(', ')}`));
  return rows;
}

async function answerLines(text: string, options: TranscriptOptions): Promise<string[]> {
  const markdown = new MarkdownStream(() => ({ colour: options.colour, width: options.width, hyperlinks: options.hyperlinks }));
  const safe = sanitize(text).replace(/\t/g, '    ');
  return [...(await markdown.push(safe)), ...(await markdown.end())];
}

/** A saved result as the live renderer saw it: a result, an error (an interrupted call says so briefly), or a denial. */
function outcomeOf(output: ToolResult['output']): ToolCallRecord['outcome'] {
  switch (output.type) {
    case 'text':
    case 'json':
      return { kind: 'result', output: output.value };
    case 'content':
      return { kind: 'result', output: output.value.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n') };
    case 'error-text':
      return { kind: 'error', error: output.value === INTERRUPTED_TOOL_RESULT_TEXT ? 'interrupted' : output.value };
    case 'error-json':
      return { kind: 'error', error: JSON.stringify(output.value) ?? 'error' };
    case 'execution-denied':
      return { kind: 'denied', reason: output.reason };
    default:
      return { kind: 'result', output: '' };
  }
}
