/**
 * Approval modes: which kinds of call ask. Kept light (only node:path): the config and the prompt
 * load it before the SDK.
 * - `ask`: every write, edit, command, new web domain and MCP tool asks (the default);
 * - `auto-edit`: file writes and edits inside the workspace apply without asking; commands, web
 *   fetches and MCP tools still ask;
 * - `plan`: read-only. Only the tools in `PLAN_MODE_TOOLS` are offered; any other call is refused
 *   with a result that says so, and the model is told it is planning.
 * `--yes` is not a mode: it stays the only way to approve everything.
 */

import { isAbsolute, relative, resolve, sep } from 'node:path';

export type ApprovalMode = 'ask' | 'auto-edit' | 'plan';

/** In the order Shift+Tab cycles them. */
export const APPROVAL_MODES: readonly ApprovalMode[] = ['ask', 'auto-edit', 'plan'];

/** How much each mode lets through without a question: a folder may only choose a mode that allows no more than the user's. */
const LATITUDE: Record<ApprovalMode, number> = { plan: 0, ask: 1, 'auto-edit': 2 };

/** What each mode means, in one line (the prompt's status row, `/mode`). */
export const MODE_SUMMARIES: Record<ApprovalMode, string> = {
  ask: 'edits, commands, new web domains and MCP tools ask first',
  'auto-edit': 'file edits in the workspace apply without asking; commands still ask',
  plan: 'read-only: the model investigates and proposes a plan, and changes nothing',
};

/**
 * The built-in tools that only read, the ones plan mode offers (and `todo_write`, which changes
 * nothing but the model's own checklist). An allow-list, so a tool added later (or any MCP tool,
 * which may write) is refused in plan mode until it is known to be safe.
 */
export const PLAN_MODE_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'list_files',
  'search_files',
  'get_weather',
  'calculate',
  'current_time',
  'todo_write',
  'web_search',
  'web_fetch',
  // Reads of what a configured MCP server serves (resources/read is read-only by the protocol), not its tools.
  'list_mcp_resources',
  'read_mcp_resource',
]);

export function isApprovalMode(value: string): value is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(value);
}

/** The mode after `mode` in the Shift+Tab cycle. */
export function nextApprovalMode(mode: ApprovalMode): ApprovalMode {
  return APPROVAL_MODES[(APPROVAL_MODES.indexOf(mode) + 1) % APPROVAL_MODES.length]!;
}

/** Whether `mode` lets more through without asking than `than`. */
export function allowsMore(mode: ApprovalMode, than: ApprovalMode): boolean {
  return LATITUDE[mode] > LATITUDE[than];
}

/** What a call that plan mode refuses returns to the model. */
export const planModeRefusal = (toolName: string): string =>
  `Not run: Sylvan is in plan mode (read-only), so ${toolName} is not available and nothing was changed. Finish investigating with the read-only tools and present your plan; the user switches to ask or auto-edit mode (Shift+Tab or /mode) when they want it carried out.`;

/** The kinds of call auto-edit applies without asking (those of files inside the workspace). */
const FILE_CHANGES: ReadonlySet<string> = new Set(['write', 'edit']);

/**
 * What the mode alone says about a call, before `--yes`, settings or an "always": refused (plan
 * mode, any tool not known to only read — even with --yes), allowed (auto-edit, a file write or
 * edit whose path stays inside the workspace), or `undefined`, left to the usual rules. The path
 * check here is lexical; the file tools still refuse links and anything else that leads out.
 */
export function modeRule(
  mode: ApprovalMode,
  call: { toolName: string; input: unknown; kind?: string },
  workspaceRoot: string,
): { deny: string } | 'allow' | undefined {
  if (mode === 'plan') return PLAN_MODE_TOOLS.has(call.toolName) ? undefined : { deny: planModeRefusal(call.toolName) };
  if (mode === 'auto-edit' && call.kind !== undefined && FILE_CHANGES.has(call.kind) && staysInside(workspaceRoot, call.input)) return 'allow';
  return undefined;
}

function staysInside(workspaceRoot: string, input: unknown): boolean {
  const given = (input as { path?: unknown } | null)?.path;
  if (typeof given !== 'string' || given === '' || given.includes('\0') || given.startsWith('~')) return false;
  const inside = relative(resolve(workspaceRoot), resolve(workspaceRoot, given));
  return inside !== '' && !isAbsolute(inside) && inside.split(sep)[0] !== '..';
}
