import { stat } from 'node:fs/promises';
import path from 'node:path';
import { openWorkspaceFile, resolveWorkspaceTarget } from '../shared/workspace-path.ts';

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The picture formats every vision model Sylvan knows reads, by file extension (lower case). */
const EXTENSIONS: Readonly<Record<string, ImageMediaType>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

const FORMAT_NAMES: Readonly<Record<ImageMediaType, string>> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
};

/**
 * The most one image may hold: sent as base64 it grows by a third, and DashScope takes at most
 * 10 MB per image (OpenAI 20 MB, and 50 MB a request: five of these fit).
 */
export const MAX_IMAGE_BYTES = 7 * 1024 * 1024;
/** The most images one message carries. */
export const MAX_IMAGES_PER_MESSAGE = 5;

/** A picture read from the workspace, ready to go into a user message. */
export interface ImageAttachment {
  /** Workspace-relative, `/`-separated. */
  name: string;
  mediaType: ImageMediaType;
  data: Uint8Array;
}

/** Whether a path names a picture by its extension (`.png`, `.jpg`, `.jpeg`, `.gif`, `.webp`). */
export function isImagePath(filePath: string): boolean {
  return EXTENSIONS[path.extname(filePath).toLowerCase()] !== undefined;
}

/** The format the first bytes of a file say it is, or undefined for none of the four. */
export function imageTypeOf(bytes: Uint8Array): ImageMediaType | undefined {
  const starts = (signature: readonly number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/**
 * Reads a picture the user named, under `read_file`'s rules (inside the workspace, no secret file,
 * no link out, no hard link), at most `MAX_IMAGE_BYTES`, and only when its bytes are the format its
 * extension says. Throws an Error whose message ends "… not attached: <reason>" reads well after
 * the path: what is wrong and what to do.
 */
export async function readImageFile(
  workspaceRoot: string,
  userPath: string,
  options: { secretPatterns?: readonly string[] } = {},
): Promise<ImageAttachment> {
  const expected = EXTENSIONS[path.extname(userPath).toLowerCase()];
  if (expected === undefined) throw new Error(`${userPath} is not a PNG, JPEG, GIF or WebP file`);
  const target = await resolveWorkspaceTarget(workspaceRoot, userPath, { secretPatterns: options.secretPatterns ?? [] });
  // Its own ENOENT ("no such file"), before opening wraps it; and a folder is refused unopened.
  if (!(await stat(target.absolutePath)).isFile()) throw new Error(`${target.relativePath} is not a file`);
  const handle = await openWorkspaceFile(target, userPath);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${target.relativePath} is not a file`);
    if (info.size > MAX_IMAGE_BYTES) {
      throw new Error(
        `${target.relativePath} is ${megabytes(info.size)}, over the limit of ${megabytes(MAX_IMAGE_BYTES)} an image; make it smaller (resize it or save it as JPEG) and attach it again`,
      );
    }
    const buffer = Buffer.alloc(info.size);
    let read = 0;
    while (read < info.size) {
      const { bytesRead } = await handle.read(buffer, read, info.size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    const data = new Uint8Array(buffer.buffer, buffer.byteOffset, read);
    const actual = imageTypeOf(data);
    if (actual === undefined) throw new Error(`${target.relativePath} is not a ${FORMAT_NAMES[expected]} image (its bytes are no picture Sylvan can send)`);
    if (actual !== expected) {
      throw new Error(`${target.relativePath} holds a ${FORMAT_NAMES[actual]} image, not ${FORMAT_NAMES[expected]}; rename it to match and attach it again`);
    }
    return { name: target.relativePath, mediaType: actual, data };
  } finally {
    await handle.close().catch(() => {});
  }
}

/** Rounded up to a tenth: a file just over the limit must not read as the limit itself. */
function megabytes(bytes: number): string {
  return `${String(Math.ceil((bytes / (1024 * 1024)) * 10) / 10)} MB`;
}
