/** The front matter a command file may set; other keys (files written for other tools have their own) are ignored. */
export interface FrontMatter {
  description?: string;
  argumentHint?: string;
  model?: string;
}

export type ParsedCommandFile = { ok: true; frontMatter: FrontMatter; body: string } | { ok: false; problem: string };

const KNOWN_KEYS: Record<string, keyof FrontMatter> = { description: 'description', 'argument-hint': 'argumentHint', model: 'model' };
/** A description or hint is one line in a menu; past this it is a mistake. */
const MAX_VALUE_CHARS = 300;
const FENCE = /^---[ \t]*$/;
const KEY_VALUE = /^([A-Za-z][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;

/**
 * Splits a command file into its front matter and the prompt. The front matter is optional: a
 * first line `---`, then `key: value` lines (blank lines and `# comments` allowed; a value may be
 * quoted), then `---`. No YAML: a line of any other shape, a repeated key, a multi-line value or a
 * missing closing `---` is a problem naming the line, and the file is not used. Never throws.
 */
export function parseCommandFile(text: string): ParsedCommandFile {
  const lines = text.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n').split('\n');
  if (!FENCE.test(lines[0] ?? '')) return { ok: true, frontMatter: {}, body: tidyBody(lines) };
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (close < 0) return { ok: false, problem: 'its front matter (from the first line, ---) has no closing --- line' };
  const frontMatter: FrontMatter = {};
  const seen = new Set<string>();
  for (let index = 1; index < close; index++) {
    const line = lines[index]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = KEY_VALUE.exec(line);
    if (!match) return { ok: false, problem: `line ${index + 1} of its front matter is not "key: value"` };
    const key = match[1]!.toLowerCase();
    if (seen.has(key)) return { ok: false, problem: `its front matter sets ${key} twice` };
    seen.add(key);
    const value = unquote((match[2] ?? '').trim());
    if (value === '|' || value === '>' || value.startsWith('|') || value.startsWith('>')) {
      return { ok: false, problem: `its front matter's ${key} is a multi-line value; write it on one line` };
    }
    if (value.length > MAX_VALUE_CHARS) return { ok: false, problem: `its front matter's ${key} is longer than ${MAX_VALUE_CHARS} characters` };
    const field = KNOWN_KEYS[key];
    if (field && value !== '') frontMatter[field] = value;
  }
  return { ok: true, frontMatter, body: tidyBody(lines.slice(close + 1)) };
}

function unquote(value: string): string {
  const first = value[0];
  if (value.length >= 2 && (first === '"' || first === "'") && value.endsWith(first)) return value.slice(1, -1);
  return value;
}

/** The prompt without the blank lines around it. */
function tidyBody(lines: readonly string[]): string {
  return lines.join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}
