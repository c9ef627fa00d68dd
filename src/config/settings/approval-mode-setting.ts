import { allowsMore, APPROVAL_MODES, isApprovalMode, type ApprovalMode } from '../../tools/approval-mode.ts';

/** One place a mode may come from, in precedence order; `trusted` for the user's own (flag, shell, their settings file). */
export interface ModeCandidate {
  label: string;
  trusted: boolean;
  value: string | undefined;
}

/**
 * The approval mode: the first candidate that sets one wins, as for every setting, except that a
 * folder's choice (its `.env`, `.sylvan/settings.json`) counts only when it lets no more through
 * than the user's own — the first trusted candidate's, else `ask`. A folder may make Sylvan
 * stricter (plan), never looser (auto-edit over the user's ask); a looser one is passed over with a note.
 * An unknown name throws through `fail` (the caller's ConfigError).
 */
export function resolveApprovalMode(candidates: readonly ModeCandidate[], fail: (message: string) => Error): { mode: ApprovalMode; notes: string[] } {
  const set = candidates
    .map((candidate) => ({ ...candidate, value: candidate.value?.trim() }))
    .filter((candidate): candidate is ModeCandidate & { value: string } => candidate.value !== undefined && candidate.value !== '');
  for (const candidate of set) {
    if (!isApprovalMode(candidate.value)) {
      throw fail(`${candidate.label} must be ${APPROVAL_MODES.join(', ')}, got "${candidate.value}".`);
    }
  }
  const users = (set.find((candidate) => candidate.trusted)?.value ?? 'ask') as ApprovalMode;
  const notes: string[] = [];
  for (const candidate of set) {
    const mode = candidate.value as ApprovalMode;
    if (candidate.trusted || !allowsMore(mode, users)) return { mode, notes };
    notes.push(`(mode ${mode} in ${candidate.label} was ignored: a folder may only choose a mode that asks at least as much as yours, ${users})`);
  }
  return { mode: users, notes };
}
