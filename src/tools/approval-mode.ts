/**
 * Approval modes: which kinds of call ask. Kept light (no imports): the config and the prompt load
 * it before the SDK. The one policy that applies them is `approval/approval-policy.ts`.
 * - `ask`: every write, edit, command, new web domain and MCP tool asks (the default);
 * - `auto-edit`: file writes and edits inside the workspace apply without asking; commands, web
 *   fetches and MCP tools still ask;
 * - `plan`: read-only. Only the tools whose spec declares a read-only kind are offered; any other call is refused
 *   with a result that says so, and the model is told it is planning.
 * `--yes` is not a mode: it stays the only way to approve everything.
 */

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
