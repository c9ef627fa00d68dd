import { wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware, type ToolSet } from 'ai';
import { delegates, onlyReads, type ToolSpecLookup } from '../../tools/tool-spec.ts';

/** Added to the system prompt for a turn in plan mode. */
export const PLAN_MODE_INSTRUCTIONS = [
  '',
  'PLAN MODE is on for this turn: you are planning, not acting. Do not change anything.',
  'Investigate with the read-only tools you have (read, list and search files, fetch pages), then answer with a concrete plan: a short numbered list of the changes you would make (files, functions, commands) and how to check them.',
  'Tools that write files, edit files, run commands or call MCP servers\' tools are not available in plan mode; a call to one is refused.',
  'End by telling the user that they can switch to ask or auto-edit mode (Shift+Tab or /mode) and say "go" to have you carry out the plan.',
].join('\n');

/**
 * The names of the tools a plan-mode turn offers: those whose spec declares a read-only kind, and
 * `task` (its subagent is given only read-only tools). A tool without a spec (or any MCP server's
 * tool, which may write) is not offered.
 */
export function planModeToolNames(tools: ToolSet, specOf: ToolSpecLookup): string[] {
  return Object.keys(tools).filter((name) => onlyReads(specOf(name)) || delegates(specOf(name)));
}

/**
 * The model, offering only `offered` in each request. The turn still knows every tool, so a call
 * to one that was not offered reaches the approval policy, which refuses it with a result that says
 * plan mode is on, instead of the SDK's "unavailable tool" error.
 */
export function offeringOnly(model: LanguageModel, offered: readonly string[]): LanguageModel {
  if (typeof model === 'string') return model;
  const names = new Set(offered);
  const middleware: LanguageModelMiddleware = {
    transformParams: async ({ params }) => ({ ...params, tools: params.tools?.filter((tool) => names.has(tool.name)) }),
  };
  return wrapLanguageModel({ model, middleware });
}
