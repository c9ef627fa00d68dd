/**
 * An agent definition: a Markdown file whose front matter names the agent and what it may use, and
 * whose body is its system prompt. The format Claude Code and Qwen Code share, read unchanged.
 */
export interface AgentDefinition {
  name: string;
  /** Tells the main model when to use the agent. */
  description: string;
  /** The system prompt. */
  prompt: string;
  /** An allow-list of tool names as written (Claude Code's and Qwen Code's names are mapped later); absent: all but `task`. */
  tools?: string[];
  disallowedTools?: string[];
  /** `inherit` (or absent): the parent's model; else a model id of the same provider. */
  model?: string;
  maxTurns?: number;
  /** Where it came from: `built-in`, or the file's path. */
  source: string;
  /** From a project's folder: its `tools` may only narrow what the user's settings allow. */
  fromProject: boolean;
}

export type ParsedAgentFile =
  | { ok: true; definition: AgentDefinition; unsupported: string[] }
  | { ok: false; problem: string };

/** Front matter keys Sylvan reads; other peers' keys (color, hooks, permissionMode…) are named once, dimmed. */
const SUPPORTED = new Set(['name', 'description', 'tools', 'disallowedtools', 'disallowed-tools', 'model', 'maxturns', 'max-turns', 'max_turns']);
const FENCE = /^---[ \t]*$/;
const KEY_VALUE = /^([A-Za-z][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;
const LIST_ITEM = /^[ \t]+-[ \t]+(.*)$/;
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
const MAX_DESCRIPTION = 1_000;
const MAX_PROMPT = 40_000;

/**
 * Parses one agent file. No YAML engine: `key: value` lines, a value may be quoted, a list may be
 * `a, b` or `[a, b]` or `- a` lines under its key. Never throws; a problem names what is wrong.
 */
export function parseAgentFile(text: string, source: string, fromProject: boolean): ParsedAgentFile {
  const lines = text.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n').split('\n');
  if (!FENCE.test(lines[0] ?? '')) return { ok: false, problem: 'it has no front matter (a first line ---, then name: and description:)' };
  const close = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (close < 0) return { ok: false, problem: 'its front matter has no closing --- line' };
  const values = new Map<string, string | string[]>();
  let listKey: string | undefined;
  for (let index = 1; index < close; index++) {
    const line = lines[index]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const item = LIST_ITEM.exec(line);
    if (item && listKey) {
      (values.get(listKey) as string[]).push(unquote(item[1]!.trim()));
      continue;
    }
    const match = KEY_VALUE.exec(line);
    if (!match) return { ok: false, problem: `line ${index + 1} of its front matter is not "key: value"` };
    const key = match[1]!.toLowerCase();
    const value = (match[2] ?? '').trim();
    listKey = undefined;
    if (value === '') {
      values.set(key, []);
      listKey = key;
    } else {
      values.set(key, unquote(value));
    }
  }
  const name = single(values.get('name'));
  if (!name || !NAME.test(name)) return { ok: false, problem: 'its name is missing or not a plain name (letters, digits, - and _)' };
  const description = single(values.get('description'))?.replace(/\\n/g, ' ').slice(0, MAX_DESCRIPTION);
  if (!description) return { ok: false, problem: 'it has no description' };
  const prompt = lines.slice(close + 1).join('\n').trim();
  if (prompt.length > MAX_PROMPT) return { ok: false, problem: `its prompt is longer than ${MAX_PROMPT} characters` };
  const tools = listOf(values.get('tools'));
  const disallowed = listOf(values.get('disallowedtools') ?? values.get('disallowed-tools'));
  const model = single(values.get('model'));
  const turns = single(values.get('maxturns') ?? values.get('max-turns') ?? values.get('max_turns'));
  const maxTurns = turns === undefined ? undefined : Number(turns);
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns > 0)) return { ok: false, problem: `its maxTurns (${turns}) is not a whole number above 0` };
  const definition: AgentDefinition = {
    name,
    description,
    prompt,
    source,
    fromProject,
    ...(tools && { tools }),
    ...(disallowed && { disallowedTools: disallowed }),
    ...(model && model !== 'inherit' && { model }),
    ...(maxTurns !== undefined && { maxTurns }),
  };
  const unsupported = [...values.keys()].filter((key) => !SUPPORTED.has(key));
  return { ok: true, definition, unsupported };
}

function single(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') || undefined : value;
}

function listOf(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.filter((item) => item !== '');
  const inner = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  return inner
    .split(',')
    .map((item) => unquote(item.trim()))
    .filter((item) => item !== '');
}

function unquote(value: string): string {
  const first = value[0];
  if (value.length >= 2 && (first === '"' || first === "'") && value.endsWith(first)) return value.slice(1, -1);
  return value;
}
