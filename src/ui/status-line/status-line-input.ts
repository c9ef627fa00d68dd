import type { TokenUsage } from '../../shared/token-usage.ts';
import type { Config } from '../../config/config.ts';
import { sessionPath } from '../../session/session-paths.ts';

/** What the status line is told about a session once the runtime is loaded. */
export interface StatusSession {
  sessionId: string;
  model: string;
  windowTokens: number;
  sessionUsage: TokenUsage;
  contextShare(): number;
  spend?: { cost: number; currency: string; requests: number };
}

/**
 * The JSON the status line command reads on stdin: Claude Code's field names where it has one
 * (`session_id`, `transcript_path`, `cwd`, `model`, `workspace`, `cost`, `context_window`), and
 * Sylvan's own beside them (`cost.total_cost` with its `currency`, `mode`, `git_branch`). Before the
 * runtime has loaded (the first prompt) the session's fields are left out.
 */
export function statusLineInput(config: Config, state: { mode: string; gitBranch?: string; session?: StatusSession; startedAt: number; now: number }): object {
  const { session } = state;
  const model = session?.model ?? config.model;
  const spend = session?.spend;
  const used = session ? Math.round(session.contextShare() * 100) : 0;
  return {
    hook_event_name: 'Status',
    ...(session && { session_id: session.sessionId, transcript_path: sessionPath(config.home, session.sessionId) }),
    cwd: config.cwd,
    model: { id: model, display_name: model, provider: config.provider },
    workspace: { current_dir: config.cwd, project_dir: config.cwd },
    cost: {
      ...(spend && { total_cost: spend.cost, currency: spend.currency, total_requests: spend.requests }),
      ...(spend?.currency === 'USD' && { total_cost_usd: spend.cost }),
      total_duration_ms: state.now - state.startedAt,
    },
    context_window: {
      total_input_tokens: session?.sessionUsage.inputTokens ?? 0,
      total_output_tokens: session?.sessionUsage.outputTokens ?? 0,
      cached_input_tokens: session?.sessionUsage.cachedInputTokens ?? 0,
      context_window_size: session?.windowTokens ?? config.contextTokens,
      used_percentage: used,
      remaining_percentage: Math.max(0, 100 - used),
    },
    mode: state.mode,
    ...(state.gitBranch !== undefined && { git_branch: state.gitBranch }),
  };
}
