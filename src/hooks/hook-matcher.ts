import type { ToolSpecLookup } from '../tools/tool-spec.ts';

/**
 * Whether a hook's matcher covers a subject. For tool events the subject is the tool's name, and
 * the names other agents give it (Claude Code's `Bash` for `run_command`, from the tool's spec) and
 * `mcp__server__tool` for an MCP tool count too, so their hook files work unchanged. The matcher is
 * a regular expression over the whole name; empty or `*` matches everything.
 */
export function matches(matcher: string, subject: string | undefined, specOf?: ToolSpecLookup): boolean {
  if (matcher === '' || matcher === '*') return true;
  if (subject === undefined) return false;
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${matcher})$`);
  } catch {
    return false;
  }
  return namesOf(subject, specOf).some((name) => pattern.test(name));
}

function namesOf(subject: string, specOf: ToolSpecLookup | undefined): string[] {
  const spec = specOf?.(subject);
  const names = [subject, ...(spec?.otherNames ?? [])];
  // Sylvan names an MCP tool `server__tool`; Claude Code, `mcp__server__tool`.
  if (subject.includes('__') && !subject.startsWith('mcp__')) names.push(`mcp__${subject}`);
  return names;
}
