import { open, stat } from 'node:fs/promises';
import { attachedFileBlock } from '../../files/attached-file.ts';
import { isImagePath, MAX_IMAGES_PER_MESSAGE, readImageFile, type ImageAttachment } from '../../files/image-file.ts';
import { resolveWorkspaceTarget } from '../../shared/workspace-path.ts';
import { pastedImagePaths } from './attach-images.ts';
import { digits } from '../../shared/text/count-text.ts';

/** The most of one file attached to a message. */
export const MAX_ATTACHED_CHARS = 16_000;
/** The most attached to one message, all files together. */
const MAX_ATTACHED_TOTAL_CHARS = 48_000;

export interface Attached {
  /** The message with each attached file's content after it. */
  message: string;
  /** One line per `@path` that could not be attached, for the user. */
  problems: string[];
  /** Workspace-relative paths attached (pictures too). */
  files: string[];
  /** Pictures named with `@` or pasted as a path, read and checked; `named` for the `@` ones. */
  images: Array<ImageAttachment & { named: boolean }>;
  /** A picture named with `@` could not be attached: the message should wait until it can. */
  imageRefused: boolean;
}

/**
 * Finds `@path` words in what the user typed and appends those files' text to the message, through
 * the same workspace boundary and secret-file rules as read_file. A path that is refused, missing,
 * binary or a folder is not attached and gets a problem line; the message is sent either way.
 * `notFiles` are words after `@` that are something else (`@server:uri` resources).
 * Pictures (`@shot.png`, or a picture's path pasted into the line) are read whole under the same
 * rules and the bounds of `image-file.ts`, and returned apart, for a model that sees them; one
 * named with `@` that cannot be attached sets `imageRefused`.
 */
export async function attachFiles(
  line: string,
  options: { workspaceRoot: string; secretPatterns?: readonly string[]; notFiles?: ReadonlySet<string> },
): Promise<Attached> {
  const words = Array.from(line.matchAll(/(?:^|\s)@([^\s]+)/g), (match) => match[1]!).filter((word) => !options.notFiles?.has(word));
  const paths = [...new Set(words.map((word) => word.replace(/[,.;:!?)]+$/, '')))];
  const problems: string[] = [];
  const files: string[] = [];
  const images: Attached['images'] = [];
  let imageRefused = false;
  const attachImage = async (userPath: string, named: boolean) => {
    try {
      if (images.length >= MAX_IMAGES_PER_MESSAGE) throw new Error(`a message carries at most ${MAX_IMAGES_PER_MESSAGE} images`);
      const image = await readImageFile(options.workspaceRoot, userPath, { secretPatterns: options.secretPatterns });
      if (images.some((other) => other.name === image.name)) return;
      images.push({ ...image, named });
      files.push(image.name);
    } catch (error) {
      if (named) imageRefused = true;
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === 'ENOENT' ? 'no such file in the workspace' : (error as Error).message;
      problems.push(`${named ? '@' : ''}${userPath} not attached: ${reason}`);
    }
  };
  let message = line;
  let budget = MAX_ATTACHED_TOTAL_CHARS;
  for (const userPath of paths) {
    if (isImagePath(userPath)) {
      await attachImage(userPath, true);
      continue;
    }
    try {
      const target = await resolveWorkspaceTarget(options.workspaceRoot, userPath, { secretPatterns: options.secretPatterns ?? [] });
      const info = await stat(target.absolutePath);
      if (!info.isFile()) throw new Error(`${target.relativePath} is not a file`);
      if (budget <= 0) throw new Error(`the message already carries ${digits(MAX_ATTACHED_TOTAL_CHARS)} characters of files`);
      const limit = Math.min(MAX_ATTACHED_CHARS, budget);
      const text = await readStart(target.absolutePath, limit * 4);
      if (text.includes('\0')) throw new Error(`${target.relativePath} is a binary file`);
      const kept = text.slice(0, limit);
      const cut = kept.length < text.length || info.size > limit * 4 ? `\n[… cut at ${digits(limit)} characters of ${digits(info.size)} bytes]` : '';
      budget -= kept.length;
      message += attachedFileBlock(target.relativePath, `${kept}${cut}`);
      files.push(target.relativePath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === 'ENOENT' ? 'no such file in the workspace' : (error as Error).message;
      problems.push(`@${userPath} not attached: ${reason}`);
    }
  }
  for (const pasted of await pastedImagePaths(line, options.workspaceRoot)) await attachImage(pasted, false);
  return { message, problems, files, images, imageRefused };
}

async function readStart(absolutePath: string, bytes: number): Promise<string> {
  const handle = await open(absolutePath, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
