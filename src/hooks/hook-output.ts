import { emptyVerdict, type HookEvent, type HookPermission, type HookRun, type HookVerdict } from './hook-types.ts';

/** Events whose plain stdout (exit 0, not JSON) is context for the model, as in Claude Code. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);
/** Events a hook can block with exit 2 (the others only show its stderr). */
const BLOCKABLE: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'PreCompact']);
const STRICTNESS: Record<HookPermission, number> = { allow: 0, ask: 1, deny: 2 };
/** A line for the user: a hook's words are cut, never its own story. */
const MAX_NOTE_CHARS = 300;

/**
 * Reads what the matching hooks of one event said, Claude Code's contract: exit 0 with JSON on
 * stdout (`continue`, `stopReason`, `systemMessage`, `decision`/`reason`, `hookSpecificOutput`…)
 * or plain text; exit 2 blocks, with stderr as the reason; any other exit is a non-blocking error
 * shown in one line. Runs are combined so the strictest answer wins.
 */
export function verdictOf(event: HookEvent, runs: readonly HookRun[]): HookVerdict {
  const verdict = emptyVerdict();
  for (const run of runs) readRun(event, run, verdict);
  return verdict;
}

function readRun(event: HookEvent, run: HookRun, verdict: HookVerdict): void {
  const label = labelOf(run);
  if (run.exit === 'timed-out') return void verdict.notes.push(`(hook ${label} timed out and was stopped)`);
  if (run.exit === 'interrupted') return void verdict.notes.push(`(hook ${label} was interrupted)`);
  if (run.exit === 'failed') return void verdict.notes.push(`(hook ${label} could not start: ${clip(run.stderr)})`);
  if (run.exit === 2) {
    const reason = run.stderr.trim() || `blocked by the hook ${label}`;
    if (BLOCKABLE.has(event)) block(verdict, reason);
    else verdict.notes.push(`(hook ${label}: ${clip(reason)})`);
    return;
  }
  if (run.exit !== 0) {
    verdict.notes.push(`(hook ${label} failed with exit ${run.exit}${run.stderr.trim() ? `: ${clip(run.stderr)}` : ''})`);
    return;
  }
  const output = jsonObject(run.stdout);
  if (!output) {
    if (STDOUT_IS_CONTEXT.has(event) && run.stdout.trim()) verdict.context.push(run.stdout.trim());
    return;
  }
  readJson(event, output, verdict);
}

function readJson(event: HookEvent, output: Record<string, unknown>, verdict: HookVerdict): void {
  if (typeof output.systemMessage === 'string' && output.systemMessage.trim()) verdict.notes.push(`(${clip(output.systemMessage)})`);
  // `continue: false` ends the turn; for Stop, ending is what happens anyway.
  if (output.continue === false && event !== 'Stop' && event !== 'SubagentStop') block(verdict, text(output.stopReason) ?? 'a hook stopped the turn');
  const reason = text(output.reason);
  if (output.decision === 'block') block(verdict, reason ?? 'blocked by a hook');
  // Claude Code's older PreToolUse form: `decision: "approve"`.
  if (output.decision === 'approve') permit(verdict, 'allow', reason);
  const specific = record(output.hookSpecificOutput);
  if (!specific) return;
  const context = text(specific.additionalContext);
  if (context) verdict.context.push(context);
  if (event === 'PreToolUse') {
    const decision = specific.permissionDecision;
    if (decision === 'allow' || decision === 'deny' || decision === 'ask') permit(verdict, decision, text(specific.permissionDecisionReason));
    const input = record(specific.updatedInput);
    if (input) verdict.updatedInput = input;
  }
  if (event === 'PermissionRequest') {
    const answer = record(specific.decision);
    if (answer?.behavior === 'allow' || answer?.behavior === 'deny') permit(verdict, answer.behavior, text(answer.message));
    const input = record(answer?.updatedInput);
    if (input) verdict.updatedInput = input;
  }
  if (event === 'PostToolUse') {
    const replaced = specific.updatedToolOutput ?? specific.updatedMCPToolOutput;
    if (replaced !== undefined) verdict.replacedOutput = typeof replaced === 'string' ? replaced : JSON.stringify(replaced);
  }
}

function block(verdict: HookVerdict, reason: string): void {
  verdict.block = verdict.block ? { reason: `${verdict.block.reason}\n${reason}` } : { reason };
}

function permit(verdict: HookVerdict, decision: HookPermission, reason: string | undefined): void {
  const current = verdict.permission;
  if (current && STRICTNESS[current.decision] >= STRICTNESS[decision]) return;
  verdict.permission = { decision, ...(reason !== undefined && { reason }) };
}

/** The hook as the user wrote it, shortened: its command or its URL. */
export function labelOf(run: Pick<HookRun, 'hook'>): string {
  const handler = run.hook.handler;
  const said = handler.type === 'command' ? handler.command : handler.url;
  return JSON.stringify(said.length > 60 ? `${said.slice(0, 59)}…` : said);
}

function jsonObject(stdout: string): Record<string, unknown> | undefined {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return record(JSON.parse(trimmed));
  } catch {
    return undefined;
  }
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const clip = (value: string): string => {
  const line = value.trim().replace(/\s+/g, ' ');
  return line.length > MAX_NOTE_CHARS ? `${line.slice(0, MAX_NOTE_CHARS - 1)}…` : line;
};
