import { createHash } from 'node:crypto';
import type { ModelMessage, UserModelMessage } from 'ai';
import type { ImageAttachment } from '../../files/image-file.ts';

type UserContent = UserModelMessage['content'];

/**
 * The user's message with its pictures: each an AI SDK file part (`mediaType` image/…, the bytes
 * inline), which the providers send as an `image_url` data URL, then the text. Text alone stays a string.
 */
export function userContent(text: string, images: readonly ImageAttachment[] = []): UserContent {
  if (images.length === 0) return text;
  return [
    ...images.map((image) => ({ type: 'file' as const, data: image.data, mediaType: image.mediaType, filename: image.name })),
    { type: 'text' as const, text },
  ];
}

/** Whether any user message of `messages` carries a picture. */
export function holdsImages(messages: readonly ModelMessage[]): boolean {
  return messages.some((message) => message.role === 'user' && Array.isArray(message.content) && message.content.some(isPicture));
}

/**
 * The history for a model that cannot see images: each picture replaced by one line saying it was
 * there. The same array when there is none; otherwise only the messages that held one are copied.
 */
export function withoutImages(messages: ModelMessage[]): ModelMessage[] {
  if (!holdsImages(messages)) return messages;
  return messages.map((message) => replacePictures(message, (part) => `[image ${nameOf(part)} was attached here; the current model cannot see images]`));
}

/**
 * A message as the session file keeps it: a picture becomes a line naming it, its size and the start
 * of its SHA-256, so a transcript never holds megabytes of base64 and a resumed history stays valid
 * for any model. The model of a resumed session is told the picture was there, not shown it again.
 */
export function forTranscript(message: ModelMessage): ModelMessage {
  return replacePictures(message, (part) => {
    const bytes = bytesOf(part);
    const facts = bytes ? ` (${kilobytes(bytes.length)}, sha256 ${createHash('sha256').update(bytes).digest('hex').slice(0, 12)})` : '';
    return `[image ${nameOf(part)}${facts} was attached here; the saved session keeps only this note, attach it again to show it]`;
  });
}

type Part = Exclude<UserContent, string>[number];

function replacePictures(message: ModelMessage, note: (part: Part) => string): ModelMessage {
  if (message.role !== 'user' || !Array.isArray(message.content) || !message.content.some(isPicture)) return message;
  return { ...message, content: message.content.map((part) => (isPicture(part) ? { type: 'text' as const, text: note(part) } : part)) };
}

function isPicture(part: Part): boolean {
  return part.type === 'image' || (part.type === 'file' && String(part.mediaType).startsWith('image'));
}

function nameOf(part: Part): string {
  return part.type === 'file' && part.filename ? part.filename : 'picture';
}

function bytesOf(part: Part): Uint8Array | undefined {
  const data = part.type === 'file' ? part.data : part.type === 'image' ? part.image : undefined;
  return data instanceof Uint8Array ? data : undefined;
}

function kilobytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
