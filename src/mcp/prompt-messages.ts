import { bounded, decodedBytes } from './call-result.ts';
import { binaryPart, blobText } from './resource-contents.ts';
import { digits } from '../shared/text/count-text.ts';

/** The most a prompt's messages put into the user's turn, like one attached file. */
export const MAX_PROMPT_CHARS = 16_000;

/** A `prompts/get` result as the user's turn: its text, and one line naming each part that was not sent. */
export interface PromptTurn {
  text: string;
  skipped: string[];
}

type Block = { type?: unknown; [key: string]: unknown };

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function blockText(block: Block, skipped: string[]): string | undefined {
  switch (block.type) {
    case 'text':
      return text(block.text);
    case 'resource': {
      const resource = (block.resource ?? {}) as Block;
      const uri = text(resource.uri) ?? 'unknown';
      const mimeType = text(resource.mimeType);
      const body = text(resource.text) ?? blobText(text(resource.blob) ?? '', mimeType);
      if (body !== undefined) return `<resource uri="${uri}">\n${body}\n</resource>`;
      skipped.push(binaryPart(uri, mimeType, text(resource.blob) ?? ''));
      return `[${skipped.at(-1)}: not sent, Sylvan sends prompts as text]`;
    }
    case 'resource_link':
      return `[resource link ${text(block.uri) ?? ''}${block.name ? ` (${String(block.name)})` : ''}]`;
    case 'image':
    case 'audio': {
      skipped.push(`${block.type} (${text(block.mimeType) ?? 'of unknown type'}, ${digits(decodedBytes(text(block.data) ?? ''))} bytes)`);
      return `[${skipped.at(-1)}: not sent, Sylvan sends prompts as text]`;
    }
    default:
      skipped.push(`a ${typeof block.type === 'string' ? block.type : 'unknown'} part`);
      return undefined;
  }
}

/**
 * The messages of a `prompts/get` result as one user message: text parts as they are, embedded
 * text resources inlined (`<resource uri="…">`), images, audio and binary resources named where they
 * were; a message in the assistant's role is marked `[assistant]`. At most 16,000 characters.
 */
export function promptTurn(result: unknown): PromptTurn {
  const messages = (result as { messages?: unknown } | undefined)?.messages;
  const skipped: string[] = [];
  const parts: string[] = [];
  for (const item of Array.isArray(messages) ? messages : []) {
    const message = (item ?? {}) as { role?: unknown; content?: unknown };
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const body = blocks
      .map((block) => blockText((block ?? {}) as Block, skipped))
      .filter((part): part is string => part !== undefined && part !== '')
      .join('\n');
    if (body === '') continue;
    parts.push(message.role === 'assistant' ? `[assistant] ${body}` : body);
  }
  return { text: bounded(parts.join('\n\n'), MAX_PROMPT_CHARS), skipped };
}
