import type { McpPrompt, McpPromptArgument } from '../mcp/prompt-list.ts';

/** `/server:prompt rest`, taken apart. */
export interface PromptCall {
  server: string;
  prompt: string;
  /** What followed the command, trimmed. */
  argumentText: string;
}

/**
 * `/server:prompt …` when `server` is one of the configured MCP servers (names are matched as
 * written: MCP names are case-sensitive); undefined for anything else, which stays a `/command`.
 */
export function parsePromptCall(line: string, servers: readonly string[]): PromptCall | undefined {
  const match = /^\/([^\s:/]+):(\S+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match || !servers.includes(match[1]!)) return undefined;
  return { server: match[1]!, prompt: match[2]!, argumentText: (match[3] ?? '').trim() };
}

/** The words of `text`: split at spaces, "double" or 'single' quotes keep spaces in one (the quotes dropped). */
export function promptWords(text: string): { word: string; named?: string }[] {
  const words: { word: string; named?: string }[] = [];
  const pattern = /\s*(?:([^\s="']+)=)?("([^"]*)"?|'([^']*)'?|\S*)/gy;
  for (let match = pattern.exec(text); match && match[0].trim() !== ''; match = pattern.exec(text)) {
    const [, name, raw = '', doubled, single] = match;
    // name="a b" is one word; name=a"b" is the plain word name=a"b".
    const value = doubled ?? single ?? raw;
    words.push(name === undefined ? { word: value } : { word: value, named: name });
  }
  return words;
}

export type ParsedArguments =
  | { ok: true; values: Record<string, string>; missing: McpPromptArgument[] }
  | { ok: false; message: string };

/**
 * The values of a prompt's arguments from what the user typed after it: `name=value` for any
 * declared name, the other words positional in the declared order (the last argument filled that
 * way takes the rest of the line, so `/server:summarise some long text` needs no quotes). `missing`
 * lists the required arguments still without a value, for the caller to ask for.
 */
export function parsePromptArguments(text: string, prompt: McpPrompt): ParsedArguments {
  const declared = new Set(prompt.arguments.map((argument) => argument.name));
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (const { word, named } of promptWords(text)) {
    if (named !== undefined && declared.has(named)) values[named] = word;
    else positional.push(named === undefined ? word : `${named}=${word}`);
  }
  const open = prompt.arguments.filter((argument) => !(argument.name in values));
  if (positional.length > 0 && open.length === 0) {
    if (prompt.arguments.length === 0) return { ok: false, message: `${prompt.name} takes no arguments.` };
    return { ok: false, message: `${prompt.name} has no argument left for "${positional.join(' ')}". Its arguments: ${argumentSummary(prompt)}.` };
  }
  positional.forEach((word, index) => {
    const target = open[Math.min(index, open.length - 1)]!;
    values[target.name] = index < open.length ? word : `${values[target.name]} ${word}`;
  });
  for (const [name, value] of Object.entries(values)) if (value === '') delete values[name];
  return { ok: true, values, missing: prompt.arguments.filter((argument) => argument.required && !(argument.name in values)) };
}

/** `<city> [state]`: the required arguments in angle brackets, the optional ones in square brackets. */
export function argumentSummary(prompt: McpPrompt): string {
  return prompt.arguments.map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`)).join(' ');
}
