import type { ToolSpec } from '../tool-spec.ts';

/**
 * Starts a subagent. The call needs no approval of its own: the subagent's calls are each decided
 * by the same policy, so plan mode, the sandbox and the user's questions hold inside it.
 */
export const taskSpec: ToolSpec<'task'> = {
  name: 'task',
  kind: 'delegate',
  // A subagent works many steps; its own step limit and the user's interrupt bound it, not the per-call limit.
  timeoutMs: (configuredMs) => Math.max(configuredMs, 30 * 60_000),
  guidance:
    'To keep your context small, hand a self-contained piece of work to a subagent with task (a search across many files to explore; a separate job to general). Several task calls in one step run at the same time. Give each a complete prompt: the subagent sees only that, and you see only its final answer.',
};
