import { MODE_SUMMARIES, type ApprovalMode } from '../../tools/approval-mode.ts';

export const PROMPT = '› ';

/** The message prompt: `› ` in the default mode, the mode's name before it otherwise, so the scrollback shows which mode each message was sent in. */
export function promptFor(mode: ApprovalMode): string {
  return mode === 'ask' ? PROMPT : `${mode} ${PROMPT}`;
}

/**
 * The status row under the message being typed: the git branch (first, so a narrow terminal still
 * shows it), the mode, what it means, how to switch. Right after a plan was made, a switch out of
 * plan mode says how to carry it out.
 */
export function modeFooter(mode: ApprovalMode, planToCarryOut = false, branch?: string): string {
  const next = planToCarryOut && mode !== 'plan' ? ' · say "go" to carry out the plan' : ' · shift+tab to switch';
  return `${branch === undefined ? '' : `git: ${branch} · `}${mode} mode · ${MODE_SUMMARIES[mode]}${next}`;
}

/** The live status line's tag during a turn: the mode unless it is the default. */
export const modeTag = (mode: ApprovalMode): string | undefined => (mode === 'ask' ? undefined : `${mode} mode`);

/** Whether `prompt` is a message prompt of some mode (a piped REPL echoes those dimmed). */
export const isMessagePrompt = (prompt: string): boolean => prompt === PROMPT || /^(auto-edit|plan) › $/.test(prompt);
