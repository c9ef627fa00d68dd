import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isImagePath } from '../../files/image-file.ts';
import { visionModelFor } from '../../models/model-catalogue.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

/** A word, a quoted path, or a path whose spaces are escaped with `\` (as terminals paste a dropped file). */
const WORDS = /'([^']+)'|"([^"]+)"|((?:\\\s|\S)+)/g;

/**
 * The picture paths pasted into a line: the whole line when it is one path, otherwise words that are
 * clearly paths (absolute, `./…` or a `file://` URL), as a terminal pastes a file dropped on it.
 * A bare `logo.png` inside a sentence is a name, not an attachment. Only paths that exist are
 * returned (the caller applies the workspace rules); `@` words are left to `@path`.
 */
export async function pastedImagePaths(line: string, workspaceRoot: string): Promise<string[]> {
  const words = Array.from(line.trim().matchAll(WORDS), (match) => ({
    text: (match[1] ?? match[2] ?? match[3] ?? '').replace(/\\(\s)/g, '$1'),
    quoted: match[3] === undefined,
  }));
  const candidates = words
    .map((word) => ({ ...word, text: fromFileUrl(word.text) }))
    .filter((word) => !word.text.startsWith('@') && isImagePath(word.text))
    .filter((word) => words.length === 1 || path.isAbsolute(word.text) || word.text.startsWith('./') || word.quoted)
    .map((word) => word.text);
  const existing: string[] = [];
  for (const candidate of new Set(candidates)) {
    const info = await stat(path.resolve(workspaceRoot, candidate)).catch(() => undefined);
    if (info?.isFile()) existing.push(candidate);
  }
  return existing;
}

function fromFileUrl(text: string): string {
  if (!/^file:\/\//i.test(text)) return text;
  try {
    return fileURLToPath(text);
  } catch {
    return text;
  }
}

/** The one line for a model that cannot see pictures: which one, and one that can. */
export function cannotSeeImages(model: string, provider: string): string {
  if (provider === 'mock') return `The mock model cannot see images; with DashScope, /model ${visionModelFor('dashscope')} reads them.`;
  return `${sanitizeLine(model)} cannot see images; switch with /model ${visionModelFor(provider)} (or another model that reads images) and send it again.`;
}
