/**
 * How a file attached with `@path` travels inside the user's message: after what they typed, one
 * block per file. The REPL writes it; the session list and the resumed transcript read it back, to
 * show what the user typed rather than the files' text.
 */
export function attachedFileBlock(relativePath: string, text: string): string {
  return `\n\n<file path="${relativePath}">\n${text}\n</file>`;
}

const BLOCK_START = '\n\n<file path="';
const BLOCKS = /^(?:\n\n<file path="[^"\n]*">\n[\s\S]*?\n<\/file>)+$/;
const PATHS = /\n\n<file path="([^"\n]*)">\n/g;

/**
 * A user message split into what was typed and the paths of the files attached after it. Text with
 * no trailing blocks comes back whole. Pure, never throws.
 */
export function splitAttachedFiles(message: string): { typed: string; files: string[] } {
  for (let at = message.indexOf(BLOCK_START); at >= 0; at = message.indexOf(BLOCK_START, at + 1)) {
    const rest = message.slice(at);
    if (!BLOCKS.test(rest)) continue;
    // Only block openings that start a block of this run, not a "<file path=" line inside a file's text.
    const files: string[] = [];
    let end = 0;
    for (const match of rest.matchAll(PATHS)) {
      if (match.index < end) continue;
      files.push(match[1] ?? '');
      end = rest.indexOf('\n</file>', match.index + match[0].length) + '\n</file>'.length;
    }
    return { typed: message.slice(0, at), files };
  }
  return { typed: message, files: [] };
}
