import type { AgentDefinition } from './agent-file.ts';

/** Finds things: read-only tools only, so it is safe to send anywhere, plan mode included. */
const explore: AgentDefinition = {
  name: 'explore',
  description:
    'Read-only search of the workspace (and the web when offered): finding files, definitions, usages and facts. Use it for searches that would take several steps, so the findings come back as one answer.',
  prompt: [
    'You are explore, a read-only search agent working for another agent.',
    'Find what you were asked for with the tools you have (read, list and search files; the web when offered). You cannot change anything.',
    'Answer with the facts found, each with the file path and line where it applies, and nothing else. Be brief: your answer is read by the agent that sent you, not by the user.',
  ].join('\n'),
  tools: ['read_file', 'list_files', 'search_files', 'web_search', 'web_fetch'],
  source: 'built-in',
  fromProject: false,
};

/** Does a whole piece of work with the parent's tools. */
const general: AgentDefinition = {
  name: 'general',
  description:
    'A general-purpose agent with the same tools as you: for a self-contained piece of work (research, a change across files) whose steps you do not need to see, or several independent pieces at once.',
  prompt: [
    'You are general, an agent doing one piece of work for another agent.',
    'Do the work you were given with the tools you have, then answer with what you did and found: the files you changed, the facts that matter, anything left undone. Be brief: your answer is read by the agent that sent you.',
  ].join('\n'),
  source: 'built-in',
  fromProject: false,
};

export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [explore, general];
