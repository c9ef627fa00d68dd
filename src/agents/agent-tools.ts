import type { AgentDefinition } from './agent-file.ts';

/** The tool that starts subagents: never offered to one (a subagent cannot start subagents). */
export const TASK_TOOL_NAME = 'task';

/** Claude Code's and Qwen Code's tool names, so their agent files work unchanged. */
const PEER_NAMES: Readonly<Record<string, string>> = {
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Bash: 'run_command',
  Grep: 'search_files',
  Glob: 'list_files',
  LS: 'list_files',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  TodoWrite: 'todo_write',
  edit: 'edit_file',
  replace: 'edit_file',
  run_shell_command: 'run_command',
  grep_search: 'search_files',
  search_file_content: 'search_files',
  glob: 'list_files',
  list_directory: 'list_files',
  read_many_files: 'read_file',
  google_web_search: 'web_search',
};

/** A name as an agent file writes it, as Sylvan calls the tool (`mcp__server__tool` → `server__tool`). */
export function sylvanToolName(written: string): string {
  if (written.startsWith('mcp__')) return written.slice('mcp__'.length);
  return PEER_NAMES[written] ?? written;
}

/**
 * The tools an agent gets, out of `available` (what the mode and settings offer the parent): its
 * `tools` allow-list and `disallowedTools` only take away, so no file can widen what is allowed,
 * and `task` is never among them.
 */
export function agentToolNames(agent: AgentDefinition, available: readonly string[]): string[] {
  const allowed = agent.tools && new Set(agent.tools.map(sylvanToolName));
  const refused = new Set((agent.disallowedTools ?? []).map(sylvanToolName));
  return available.filter((name) => name !== TASK_TOOL_NAME && (!allowed || allowed.has(name)) && !refused.has(name));
}
