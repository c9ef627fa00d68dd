import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';
import { COMPACTION_SUMMARY_PREFIX } from '../../shared/compaction-summary.ts';

/** The language the mock answers in: Chinese when the user wrote any CJK character, else English. */
export type MockLanguage = 'zh' | 'en';

/** What a tool call came back with, reduced to what the mock needs to phrase an answer. */
export type ToolOutcome =
  | { kind: 'success'; text: string }
  | { kind: 'error'; text: string }
  | { kind: 'denied'; reason: string | undefined };

/** One tool result from the prompt, joined with the input of the call it answers. */
export type PromptToolResult = {
  toolName: string;
  input: Record<string, unknown>;
  outcome: ToolOutcome;
};

/** The history in order, as far as summaries care: what the user said and what tools returned. */
export type HistoryEntry = { kind: 'user'; text: string } | { kind: 'tool-result'; result: PromptToolResult };

/** The prompt, read the way the mock model needs it. */
export type PromptReading = {
  /** Text of the last user message ('' when there is none). */
  lastUserText: string;
  /** Tool results that arrived after the last user message: the current turn's observations. */
  resultsAfterLastUser: PromptToolResult[];
  /** User messages and tool results before the last user message, oldest first, without summaries or /compact requests. */
  history: HistoryEntry[];
  /** The text of an earlier /compact summary, when the history starts from one. */
  earlierSummary: string | undefined;
};

/** The first words of the summary the mock writes for /compact, and of the message the app keeps afterwards. */
export const SUMMARY_PREFIX = COMPACTION_SUMMARY_PREFIX;
/** The first words of the request the app's /compact sends. */
export const SUMMARIZE_REQUEST_PREFIX = 'Summarize the conversation so far';

const CJK_PATTERN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef\u3000-\u303f]/;

/** Chinese when the text contains a CJK character, else English. */
export function detectLanguage(text: string): MockLanguage {
  return CJK_PATTERN.test(text) ? 'zh' : 'en';
}

/** Reads a model prompt into the parts the mock decides from. Pure. */
export function readPrompt(prompt: LanguageModelV4Prompt): PromptReading {
  const callInputs = new Map<string, Record<string, unknown>>();
  const lastUserIndex = findLastUserIndex(prompt);
  const history: HistoryEntry[] = [];
  const resultsAfterLastUser: PromptToolResult[] = [];
  let earlierSummary: string | undefined;

  prompt.forEach((message, index) => {
    if (message.role === 'system') return;
    if (message.role === 'user' || message.role === 'assistant') {
      const text = joinText(message.content);
      if (text.trimStart().startsWith(SUMMARY_PREFIX)) {
        earlierSummary = text.trim();
        return;
      }
      if (message.role === 'user' && index < lastUserIndex && !text.trimStart().startsWith(SUMMARIZE_REQUEST_PREFIX)) {
        if (text.trim() !== '') history.push({ kind: 'user', text: text.trim() });
      }
    }
    if (message.role === 'user') return;
    for (const part of message.content) {
      if (part.type === 'tool-call') {
        callInputs.set(part.toolCallId, asRecord(part.input));
      } else if (part.type === 'tool-result') {
        const result: PromptToolResult = {
          toolName: part.toolName,
          input: callInputs.get(part.toolCallId) ?? {},
          outcome: toOutcome(part.output),
        };
        if (index > lastUserIndex) resultsAfterLastUser.push(result);
        else history.push({ kind: 'tool-result', result });
      }
    }
  });

  const lastUser = prompt[lastUserIndex];
  const lastUserText = lastUser?.role === 'user' ? joinText(lastUser.content).trim() : '';
  return { lastUserText, resultsAfterLastUser, history, earlierSummary };
}

function findLastUserIndex(prompt: LanguageModelV4Prompt): number {
  for (let index = prompt.length - 1; index >= 0; index -= 1) {
    if (prompt[index]?.role === 'user') return index;
  }
  return -1;
}

function joinText(content: ReadonlyArray<{ type: string; text?: string }>): string {
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

function asRecord(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    // Some histories (e.g. resumed transcripts) carry the input still JSON-encoded.
    try {
      return asRecord(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function toOutcome(output: LanguageModelV4ToolResultOutput): ToolOutcome {
  switch (output.type) {
    case 'text':
      return { kind: 'success', text: output.value };
    case 'json':
      return { kind: 'success', text: stringify(output.value) };
    case 'error-text':
      // The SDK stringifies thrown errors as "Error: …"; the user needs only the message.
      return { kind: 'error', text: output.value.replace(/^(?:[A-Z]\w*)?Error: /, '') };
    case 'error-json':
      return { kind: 'error', text: stringify(output.value) };
    case 'execution-denied':
      return { kind: 'denied', reason: output.reason };
    case 'content':
      return {
        kind: 'success',
        text: output.value.map((part) => (part.type === 'text' ? part.text : '')).join('\n'),
      };
  }
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
