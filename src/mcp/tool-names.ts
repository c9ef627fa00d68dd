/** Providers accept tool names of `[a-zA-Z0-9_-]`, at most 64 characters. */
const MAX_NAME = 64;

const clean = (text: string): string => text.replace(/[^a-zA-Z0-9_-]/g, '_');

/**
 * The name the model sees for `tool` of `server`: `server__tool`, cleaned to what providers
 * accept, cut to 64 characters and made unique against `taken` (which it joins).
 */
export function offeredToolName(server: string, tool: string, taken: Set<string>): string {
  const base = `${clean(server)}__${clean(tool)}`.slice(0, MAX_NAME);
  let name = base;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
  }
  taken.add(name);
  return name;
}
