import { bounded, decodedBytes } from './call-result.ts';
import { digits } from '../shared/text/count-text.ts';

/** MIME types whose bytes are text: a blob of one is decoded rather than skipped. */
const TEXTUAL = /^text\/|^application\/(?:[\w.+-]*\+)?(?:json|xml|yaml|x-yaml|javascript|x-sh|csv|toml)\b/i;

/** What `resources/read` gave, as text: the textual parts, and one line naming each part that was not. */
export interface ResourceText {
  /** The text parts joined (a blob of a textual MIME type decoded), bounded; '' when there were none. */
  text: string;
  /** "binary demo://x (image/png, 1,234 bytes)", one per part that is not text. */
  skipped: string[];
}

/** A base64 blob of a textual MIME type as UTF-8, or undefined when it is not text after all. */
export function blobText(blob: string, mimeType: string | undefined): string | undefined {
  if (!mimeType || !TEXTUAL.test(mimeType)) return undefined;
  const decoded = Buffer.from(blob, 'base64').toString('utf8');
  return decoded.includes('\0') || decoded.includes('\uFFFD') ? undefined : decoded;
}

/** "binary demo://x (image/png, 1,234 bytes)". */
export const binaryPart = (uri: string, mimeType: string | undefined, blob: string): string =>
  `binary ${uri} (${mimeType ?? 'of unknown type'}, ${digits(decodedBytes(blob))} bytes)`;

/**
 * A `resources/read` result as text, under the same bound as a tool result (8,000 characters,
 * the cut said): text parts as they are, blobs of a textual MIME type decoded, other blobs named.
 */
export function resourceText(result: unknown, limit?: number): ResourceText {
  const contents = (result as { contents?: unknown } | undefined)?.contents;
  const parts: string[] = [];
  const skipped: string[] = [];
  for (const item of Array.isArray(contents) ? contents : []) {
    const part = (item ?? {}) as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
    const uri = typeof part.uri === 'string' ? part.uri : 'unknown';
    const mimeType = typeof part.mimeType === 'string' ? part.mimeType : undefined;
    if (typeof part.text === 'string') {
      parts.push(part.text);
    } else if (typeof part.blob === 'string') {
      const decoded = blobText(part.blob, mimeType);
      if (decoded === undefined) skipped.push(binaryPart(uri, mimeType, part.blob));
      else parts.push(decoded);
    }
  }
  return { text: parts.length > 0 ? bounded(parts.join('\n'), limit) : '', skipped };
}
