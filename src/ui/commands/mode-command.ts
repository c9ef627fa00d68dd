import { APPROVAL_MODES, isApprovalMode, MODE_SUMMARIES } from '../../tools/approval-mode.ts';
import type { ReplState } from '../state/repl-state.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

/** `/mode` shows the mode and the others; `/mode NAME` switches, from the next call on. */
export function modeCommand(argument: string, state: ReplState): void {
  const name = argument.trim().toLowerCase();
  if (name === '') {
    for (const mode of APPROVAL_MODES) {
      const mark = mode === state.mode ? '●' : ' ';
      state.print(`  ${mark} ${mode.padEnd(10)} ${state.dim(MODE_SUMMARIES[mode])}`);
    }
    state.print(state.dim('  /mode NAME or Shift+Tab switches; --yes alone approves everything.'));
    return;
  }
  if (!isApprovalMode(name)) {
    state.print(`  Unknown mode ${sanitizeLine(argument.trim())}: use ${APPROVAL_MODES.join(', ')}.`);
    return;
  }
  const leavingPlan = state.mode === 'plan' && name !== 'plan';
  state.mode = name;
  const go = leavingPlan && state.runtime.conversation.length > 0 ? ' Say "go" to carry out the plan.' : '';
  state.print(`  ${name} mode: ${MODE_SUMMARIES[name]}.${go}`);
}
