import type { ContentBlock } from '@agentclientprotocol/sdk';
import { imageTypeOf, MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE, type ImageAttachment } from '../../files/image-file.ts';

/** What a `session/prompt` sends the model: its text (with embedded context inlined) and its pictures. */
export interface PromptTurn {
  text: string;
  images: ImageAttachment[];
  /** Why parts of the prompt were left out, for the user. */
  notes: string[];
}

/**
 * The editor's content blocks as one user message: text as it is, an embedded resource (a file the
 * user attached, as the editor has it) inside a tag naming its URI, a resource link by its URI, and
 * pictures whose bytes are a picture Sylvan sends (checked by content, not by the declared type).
 */
export function promptTurn(blocks: readonly ContentBlock[]): PromptTurn {
  const parts: string[] = [];
  const images: ImageAttachment[] = [];
  const notes: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource_link') parts.push(`@${block.uri}`);
    else if (block.type === 'resource' && 'text' in block.resource) parts.push(`\n<context uri="${block.resource.uri}">\n${block.resource.text}\n</context>`);
    else if (block.type === 'image') {
      const data = Buffer.from(block.data, 'base64');
      const mediaType = imageTypeOf(data);
      if (!mediaType || data.length > MAX_IMAGE_BYTES || images.length >= MAX_IMAGES_PER_MESSAGE) notes.push('(a picture was left out: not a PNG, JPEG, GIF or WebP Sylvan can send, or too many or too large)');
      else images.push({ name: block.uri ?? `picture-${images.length + 1}`, mediaType, data });
    } else notes.push(`(a ${block.type} part of the prompt was left out: Sylvan does not take it)`);
  }
  return { text: parts.join(''), images, notes };
}
