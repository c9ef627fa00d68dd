import { countOf } from '../../shared/text/count-text.ts';

const CONTEXT_LINES = 3;
/** A diff bigger than this is cut in the approval preview; the edit itself is not. */
const MAX_PREVIEW_LINES = 80;
const MAX_LINE_CHARS = 200;
/** Beyond this the diff is not worth computing for a preview. */
const DIFF_TIMEOUT_MS = 500;

/**
 * A unified diff of `before` → `after` (both with `\n` line ends) for the approval preview:
 * `--- a/path` / `+++ b/path` headers, `@@` hunks with 3 lines of context, at most 80 lines (then
 * "… N more lines of diff"), long lines cut. `sanitize` is applied to every line from the file,
 * so control characters are shown, never acted on. Loads the `diff` library on first use.
 */
export async function unifiedDiff(
  displayPath: string,
  before: string,
  after: string,
  sanitize: (line: string) => string,
): Promise<string> {
  const { structuredPatch } = await import('diff');
  const patch = structuredPatch(`a/${displayPath}`, `b/${displayPath}`, before, after, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (patch === undefined) return '(the change is too large to show as a diff)';
  const lines = [`--- a/${sanitize(displayPath)}`, `+++ b/${sanitize(displayPath)}`];
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      const marker = line.charAt(0);
      const text = sanitize(line.slice(1));
      lines.push(`${marker}${text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text}`);
    }
  }
  if (lines.length <= MAX_PREVIEW_LINES) return lines.join('\n');
  const rest = lines.length - MAX_PREVIEW_LINES;
  return [...lines.slice(0, MAX_PREVIEW_LINES), `… ${countOf(rest, 'more line')} of diff`].join('\n');
}
