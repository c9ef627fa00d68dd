import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest } from '../agent/run-turn.ts';
import { TOOLS_NEEDING_APPROVAL } from '../tools/needs-approval.ts';
import type { LineReader } from './line-reader.ts';

/** What the user is shown before saying yes or no. */
export type DescribeCall = (request: ApprovalRequest) => Promise<{ summary: string; preview: string }>;

/** Print mode: nobody to ask, so a call that needs approval runs only with --yes. */
export function nonInteractiveApproval(yes: boolean): ApprovalPolicy {
  return {
    decide(toolName) {
      if (!TOOLS_NEEDING_APPROVAL.has(toolName)) return 'not-needed';
      if (yes) return 'allow';
      return {
        deny: `${toolName} needs the user's approval, and Sylvan is running non-interactively without --yes, so it was not run and nothing changed. Tell the user they can rerun with --yes (or SYLVAN_YES=1) to allow it.`,
      };
    },
    ask: async () => ({ approved: false, reason: 'No one is there to approve this call.' }),
  };
}

/**
 * The REPL asks: `write_file hello.txt (12 lines)? [y]es / [n]o / [a]lways this session`.
 * "Always" lasts until /approvals resets it or the program ends.
 */
export class InteractiveApproval implements ApprovalPolicy {
  readonly always = new Set<string>();

  constructor(
    private readonly reader: LineReader,
    private readonly show: (lines: { summary: string; preview: string }) => void,
    private readonly describe: DescribeCall,
    private readonly yes: boolean,
    /** Called when the user presses Ctrl-C at the question: the turn should stop. */
    private readonly onInterrupt: () => void,
  ) {}

  decide(toolName: string): 'ask' | 'allow' | 'not-needed' {
    if (!TOOLS_NEEDING_APPROVAL.has(toolName)) return 'not-needed';
    return this.yes || this.always.has(toolName) ? 'allow' : 'ask';
  }

  async ask(request: ApprovalRequest): Promise<ApprovalDecision> {
    const description = await this.describe(request);
    this.show(description);
    while (true) {
      const answer = await this.reader.read(`${description.summary}? [y]es / [n]o / [a]lways this session › `, {
        remember: false,
      });
      if (answer.kind === 'interrupt') {
        this.onInterrupt();
        return { approved: false, reason: 'The user interrupted.' };
      }
      if (answer.kind === 'eof') return { approved: false, reason: 'The user did not answer; nothing was changed.' };
      const word = answer.line.trim().toLowerCase();
      if (['y', 'yes', '是', '好', 'ok'].includes(word)) return { approved: true };
      if (['n', 'no', '否', '不'].includes(word)) {
        return { approved: false, reason: 'The user said no to this call; nothing was changed. Ask them what they want instead.' };
      }
      if (['a', 'always', '总是'].includes(word)) {
        this.always.add(request.toolName);
        return { approved: true };
      }
    }
  }
}
