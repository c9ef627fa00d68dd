import { Approval, type ApprovalOptions } from '../../src/approval/approval-policy.ts';
import { printModeCannotAsk } from '../../src/approval/nobody-to-ask.ts';
import { TerminalAsker, type TerminalAskerOptions } from '../../src/ui/approval/approval-prompt.ts';

type PolicyOptions = Partial<Omit<ApprovalOptions, 'asker'>>;

/** The policy print mode uses: nobody to ask, so what needs approval runs only with --yes. */
export function printApproval(yes: boolean, options: PolicyOptions = {}): Approval {
  return new Approval({ ...options, yes, asker: printModeCannotAsk });
}

/** The policy the REPL uses on a terminal, asking through `asker`. */
export function terminalApproval(asker: TerminalAskerOptions, options: PolicyOptions = {}): Approval {
  return new Approval({ yes: false, ...options, asker: new TerminalAsker(asker) });
}
