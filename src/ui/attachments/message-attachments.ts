import type { ChalkInstance } from 'chalk';
import type { ImageAttachment } from '../../files/image-file.ts';
import { acceptsImages } from '../../models/model-catalogue.ts';
import { attachFiles } from './attach-files.ts';
import { cannotSeeImages } from './attach-images.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

export interface AttachmentContext {
  workspaceRoot: string;
  secretPatterns?: readonly string[];
  /** Words after `@` that are not files (`@server:uri` resources). */
  notFiles?: ReadonlySet<string>;
  /** What those words attached and what they could not, told with the files'. */
  resources?: { attached: readonly string[]; problems: readonly string[] };
  /** The model the turn goes to, and its provider: whether pictures can go with it. */
  model: string;
  provider: string;
  print: (line: string) => void;
  colour: ChalkInstance;
}

/**
 * The message a typed line becomes: `@file` text appended, pictures (`@shot.png`, a pasted path)
 * apart for a model that sees them. Says what was attached and what not, one line each. Resolves
 * undefined when the message must not be sent yet: a picture named with `@` could not be attached,
 * or the model cannot see pictures (so the user can switch models and send it again). A pasted
 * path the model cannot see stays text, with a line saying so.
 */
export async function withAttachments(
  line: string,
  context: AttachmentContext,
): Promise<{ text: string; images: ImageAttachment[] } | undefined> {
  const { print, colour } = context;
  const attached = await attachFiles(line, { workspaceRoot: context.workspaceRoot, secretPatterns: context.secretPatterns, notFiles: context.notFiles });
  for (const problem of [...attached.problems, ...(context.resources?.problems ?? [])]) print(colour.yellow(`  ${sanitizeLine(problem)}`));
  if (attached.imageRefused) {
    print(colour.yellow('  Not sent: fix the picture and send again (↑ brings the message back).'));
    return undefined;
  }
  let images: ImageAttachment[] = attached.images.map(({ named: _named, ...image }) => image);
  let files = attached.files;
  if (images.length > 0 && !acceptsImages(context.model)) {
    if (attached.images.some((image) => image.named)) {
      print(colour.yellow(`  ${cannotSeeImages(context.model, context.provider)} Not sent.`));
      return undefined;
    }
    const pasted = new Set(images.map((image) => image.name));
    print(colour.dim(`  ${[...pasted].map(sanitizeLine).join(', ')} sent as text: ${cannotSeeImages(context.model, context.provider)}`));
    files = files.filter((file) => !pasted.has(file));
    images = [];
  }
  const names = [...files, ...(context.resources?.attached ?? [])];
  if (names.length > 0) print(colour.dim(`  attached ${names.map(sanitizeLine).join(', ')}`));
  return { text: attached.message, images };
}
