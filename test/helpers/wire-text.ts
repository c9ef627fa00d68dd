import type { ChatMessage } from './dashscope-server.ts';

/**
 * A wire message with array content (`[{ type: 'text', text }]`, as @ai-sdk/alibaba sends every
 * user message, ready for cache control) written as the plain string it stands for, so tests
 * compare what was said rather than how it was packed.
 */
export function plainMessage(message: ChatMessage | undefined): ChatMessage | undefined {
  if (!message || !Array.isArray(message.content)) return message;
  const parts = message.content as unknown[];
  const texts = parts.map((part) =>
    part !== null && typeof part === 'object' && (part as { type?: unknown }).type === 'text' ? (part as { text?: unknown }).text : undefined,
  );
  if (texts.some((text) => typeof text !== 'string')) return message;
  return { ...message, content: texts.join('') };
}

export const plainMessages = (messages: ChatMessage[]): (ChatMessage | undefined)[] => messages.map(plainMessage);
