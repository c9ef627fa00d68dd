/** A name as the Agent Skills format writes it (`pdf`, `release-notes`), at most 64 characters. */
const NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]{0,63}$/u;
/** A description is one entry of a list in the system prompt: past this it is cut. */
export const MAX_DESCRIPTION_CHARS = 300;
const FENCE = /^---[ \t]*$/;
const KEY_VALUE = /^([A-Za-z][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;
// What can act on a terminal or hide text from a reader: C0, DEL, C1, bidi controls, BOM, tag characters.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu;

export type ParsedSkillFile = { ok: true; name: string; description: string; body: string } | { ok: false; problem: string };

/** One line of text from a file, as it may enter the system prompt: controls and invisible characters out, spaces collapsed. */
function promptLine(text: string, maxChars: number): string {
  const line = text.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  return line.length <= maxChars ? line : `${line.slice(0, maxChars - 1).trimEnd()}…`;
}

/**
 * Reads a `SKILL.md`: front matter between `---` lines with `name` and `description` (other keys,
 * such as Claude Code's `allowed-tools`, are ignored: a skill can never widen what is allowed),
 * then the body. A value may be quoted, or a YAML block (`>` or `|`) of indented lines, joined.
 * Never throws; what is wrong is said as the end of "skill X was skipped: …".
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  const lines = text.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n').split('\n');
  if (!FENCE.test(lines[0] ?? '')) return { ok: false, problem: 'it does not start with front matter (a --- line, name: and description:, ---)' };
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (close < 0) return { ok: false, problem: 'its front matter has no closing --- line' };
  const values = new Map<string, string>();
  for (let index = 1; index < close; index++) {
    const line = lines[index]!;
    if (line.trim() === '' || line.trimStart().startsWith('#') || /^[ \t]/.test(line)) continue;
    const match = KEY_VALUE.exec(line);
    if (!match) return { ok: false, problem: `line ${index + 1} of its front matter is not "key: value"` };
    let value = (match[2] ?? '').trim();
    if (/^[>|][+-]?$/.test(value)) {
      const block: string[] = [];
      while (index + 1 < close && (/^[ \t]/.test(lines[index + 1]!) || lines[index + 1]!.trim() === '')) block.push(lines[++index]!.trim());
      value = block.join(' ');
    }
    values.set(match[1]!.toLowerCase(), unquote(value));
  }
  const name = values.get('name') ?? '';
  const description = promptLine(values.get('description') ?? '', MAX_DESCRIPTION_CHARS);
  if (name === '') return { ok: false, problem: 'its front matter has no name' };
  if (!NAME.test(name)) return { ok: false, problem: 'its name is not letters, digits, ".", "_" and "-" (at most 64)' };
  if (description === '') return { ok: false, problem: 'its front matter has no description' };
  return { ok: true, name, description, body: lines.slice(close + 1).join('\n').trim() };
}

function unquote(value: string): string {
  const first = value[0];
  if (value.length >= 2 && (first === '"' || first === "'") && value.endsWith(first)) return value.slice(1, -1);
  return value;
}
