import type { LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { detectLanguage, readPrompt } from './mock-prompt.ts';

const ASKS_TO_THINK = /想一想|想想|思考一下|仔细想|\bthink\b|\breason\b/i;

const REASONING = {
  zh: '用户让我先想一想。\n我是离线的模拟模型，没有真正的推理，但可以把步骤说清楚：先弄明白问题，再看需不需要工具，最后简短地回答。\n',
  en: 'The user asked me to think first.\nI am the offline mock model, so there is no real reasoning here, but I can show the steps: understand the question, see whether a tool helps, then answer briefly.\n',
};

/**
 * The mock model's reasoning, for prompts that ask it to think (`想一想`, `think`): a short,
 * honest note streamed as reasoning parts before the answer of the turn's first step, so the
 * offline demo shows how thinking looks. Other prompts get the parts unchanged.
 */
export function withMockReasoning(parts: LanguageModelV4StreamPart[], prompt: LanguageModelV4Prompt): LanguageModelV4StreamPart[] {
  const reading = readPrompt(prompt);
  if (reading.resultsAfterLastUser.length > 0 || !ASKS_TO_THINK.test(reading.lastUserText)) return parts;
  const text = REASONING[detectLanguage(reading.lastUserText) === 'zh' ? 'zh' : 'en'];
  const id = 'mock-reasoning';
  const chunks = text.match(/[\u3000-\u9fff\uff00-\uffef]{1,2}|[^\s\u3000-\u9fff\uff00-\uffef]+[ \t]*|\s+/gu) ?? [];
  const reasoning: LanguageModelV4StreamPart[] = [
    { type: 'reasoning-start', id },
    ...chunks.map((delta): LanguageModelV4StreamPart => ({ type: 'reasoning-delta', id, delta })),
    { type: 'reasoning-end', id },
  ];
  const at = parts.findIndex((part) => part.type !== 'stream-start' && part.type !== 'response-metadata');
  return [...parts.slice(0, at), ...reasoning, ...parts.slice(at)];
}
