import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAgentFile, type AgentDefinition } from './agent-file.ts';
import { BUILT_IN_AGENTS } from './built-in-agents.ts';

/** Beyond these, a folder is not read further: agent files are a handful of prompts, not a data set. */
const MAX_FILES_PER_FOLDER = 100;
const MAX_FILE_BYTES = 64 * 1024;

export interface AgentCatalogue {
  /** By name; a later source replaces an earlier one of the same name. */
  agents: ReadonlyMap<string, AgentDefinition>;
  /** One line per file not used or field ignored, shown dimmed once. */
  notes: string[];
}

/**
 * The agents a session offers: the built-ins, then Claude Code's and Qwen Code's project folders,
 * then `.sylvan/agents/`, then the user's `$SYLVAN_HOME/agents/` — a later one wins on a clash, so
 * the user's own file wins. Never throws.
 */
export function loadAgentCatalogue(workspaceRoot: string, home: string): AgentCatalogue {
  const agents = new Map<string, AgentDefinition>(BUILT_IN_AGENTS.map((agent) => [agent.name, agent]));
  const notes: string[] = [];
  const folders: { path: string; shown: string; fromProject: boolean }[] = [
    { path: join(workspaceRoot, '.claude', 'agents'), shown: '.claude/agents', fromProject: true },
    { path: join(workspaceRoot, '.qwen', 'agents'), shown: '.qwen/agents', fromProject: true },
    { path: join(workspaceRoot, '.sylvan', 'agents'), shown: '.sylvan/agents', fromProject: true },
    { path: join(home, 'agents'), shown: join(home, 'agents'), fromProject: false },
  ];
  for (const folder of folders) {
    for (const file of markdownFiles(folder.path)) {
      const shown = `${folder.shown}/${file}`;
      const text = readBounded(join(folder.path, file));
      if (text === undefined) {
        notes.push(`agent file ${shown} was not read (unreadable or over ${MAX_FILE_BYTES / 1024} KB)`);
        continue;
      }
      const parsed = parseAgentFile(text, shown, folder.fromProject);
      if (!parsed.ok) {
        notes.push(`agent file ${shown} is not used: ${parsed.problem}`);
        continue;
      }
      if (parsed.unsupported.length > 0) notes.push(`agent file ${shown}: ${parsed.unsupported.join(', ')} not supported by Sylvan, ignored`);
      agents.set(parsed.definition.name, parsed.definition);
    }
  }
  return { agents, notes };
}

function markdownFiles(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith('.md'))
      .sort()
      .slice(0, MAX_FILES_PER_FOLDER);
  } catch {
    return [];
  }
}

function readBounded(path: string): string | undefined {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
