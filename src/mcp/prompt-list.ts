/** One argument a prompt declares, in its declared order. */
export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

/** A prompt of a server as Sylvan keeps it: what `/server:name` runs. */
export interface McpPrompt {
  name: string;
  description?: string;
  arguments: McpPromptArgument[];
}

/** Prompts of one server kept (the first ones it lists); every one is in the `/` menu and `/mcp`. */
export const MAX_PROMPTS = 100;
/** A longer prompt or argument name cannot be typed sensibly; the prompt is left out. */
const MAX_PROMPT_NAME_CHARS = 64;
/** A prompt declaring more arguments is left out. */
const MAX_PROMPT_ARGUMENTS = 20;
/** Descriptions (of prompts, arguments and resources) are cut to this. */
export const MAX_DESCRIPTION_CHARS = 200;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** One line of at most `limit` characters, or undefined when there is nothing. */
export function shortDescription(value: unknown, limit = MAX_DESCRIPTION_CHARS): string | undefined {
  const line = text(value)?.replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length <= limit ? line : `${line.slice(0, limit - 1)}…`;
}

/**
 * What a typed word (a prompt's name, a resource's URI) may not hold: spaces, and what the
 * sanitiser would show as a symbol (controls, bidi marks), since Tab inserts the word as listed.
 */
export const UNTYPABLE = /[\s\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u;

/** A name typed as one word after `/server:` or before `=`. */
const usableName = (name: unknown): name is string =>
  typeof name === 'string' && name.length > 0 && name.length <= MAX_PROMPT_NAME_CHARS && !UNTYPABLE.test(name) && !name.includes('=');

function toPrompt(listed: unknown): McpPrompt | undefined {
  const record = (listed ?? {}) as { name?: unknown; title?: unknown; description?: unknown; arguments?: unknown };
  if (!usableName(record.name)) return undefined;
  const declared = Array.isArray(record.arguments) ? record.arguments : [];
  if (declared.length > MAX_PROMPT_ARGUMENTS) return undefined;
  const args: McpPromptArgument[] = [];
  for (const item of declared) {
    const argument = (item ?? {}) as { name?: unknown; description?: unknown; required?: unknown };
    if (!usableName(argument.name) || args.some((other) => other.name === argument.name)) return undefined;
    args.push({ name: argument.name, description: shortDescription(argument.description), required: argument.required === true });
  }
  return { name: record.name, description: shortDescription(record.description) ?? shortDescription(record.title), arguments: args };
}

/**
 * The prompts of a server's `prompts/list` that Sylvan offers as `/server:name`: in the server's
 * order, at most `MAX_PROMPTS`, each with a name that is one word of at most 64 characters and at
 * most 20 arguments named the same way; descriptions (or the title, without one) cut to one line of 200 characters.
 */
export function boundPromptList(listed: readonly unknown[], maxPrompts = MAX_PROMPTS): { kept: McpPrompt[]; listedCount: number } {
  const kept: McpPrompt[] = [];
  for (const item of listed) {
    if (kept.length >= maxPrompts) break;
    const prompt = toPrompt(item);
    if (prompt && !kept.some((other) => other.name === prompt.name)) kept.push(prompt);
  }
  return { kept, listedCount: listed.length };
}
