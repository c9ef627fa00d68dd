import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest } from '../agent/turn-options.ts';
import { approvalScopeOf, type ApprovalScopeResolver } from '../tools/approval-scope.ts';
import type { LineReader } from './line-reader.ts';
import { sanitize, sanitizeLine } from './sanitize.ts';

/** What the user is shown before saying yes or no. */
export type DescribeCall = (request: ApprovalRequest) => Promise<CallDescription>;

/** A call as the approval question shows it; `previewFormat: 'diff'` lets the terminal colour a unified diff. */
export interface CallDescription {
  summary: string;
  preview: string;
  previewFormat?: 'diff';
}

/**
 * The "run with network" answer for a sandboxed command: offered when `offered` says so (the
 * sandbox is on and the network is not already allowed); `grant` lets that one call reach it.
 */
export interface NetworkChoice {
  offered(request: ApprovalRequest): boolean;
  grant(toolCallId: string): void;
}

/** Print mode: nobody to ask, so a call that needs approval runs only with --yes. */
export function nonInteractiveApproval(
  yes: boolean,
  extraScopes?: ApprovalScopeResolver,
  /** Scope keys the user's settings approved ahead. */
  approvedAhead: readonly string[] = [],
): ApprovalPolicy {
  return {
    decide(toolName, input) {
      const scope = approvalScopeOf(toolName, input, extraScopes);
      if (!scope) return 'not-needed';
      if (yes || approvedAhead.includes(scope.key)) return 'allow';
      return {
        deny: `${toolName} needs the user's approval, and Sylvan is running non-interactively without --yes, so it was not run and nothing changed. Tell the user they can rerun with --yes (or SYLVAN_YES=1) to allow it.`,
      };
    },
    ask: async () => ({ approved: false, reason: 'No one is there to approve this call.' }),
  };
}

/**
 * A REPL reading a pipe: the next line is the user's next question, never an answer, so a call that
 * would be asked about is denied (and the model told why) unless --yes or an "always" allows it.
 */
export function pipedReplApproval(interactive: InteractiveApproval): ApprovalPolicy {
  return {
    decide(toolName, input) {
      const decision = interactive.decide(toolName, input);
      if (decision !== 'ask') return decision;
      return {
        deny: `${toolName} needs the user's approval, and Sylvan's input is a pipe, not a terminal, so it cannot ask; it was not run and nothing changed. Tell the user they can rerun with --yes (or SYLVAN_YES=1) to allow it.`,
      };
    },
    ask: async () => ({ approved: false, reason: 'No one is there to approve this call.' }),
  };
}

/**
 * The REPL asks: `write_file hello.txt (12 lines)? [y]es / [n]o / [a]lways this session`.
 * "Always" lasts until /approvals resets it or the program ends; what the settings approved ahead
 * stays (the user chose it in a file, not at a question).
 */
export class InteractiveApproval implements ApprovalPolicy {
  /** Scope keys answered "always" in this session: what `/approvals` resets. */
  readonly always = new Set<string>();
  /** Scope keys the user's settings approved ahead (`permissions.allow`): kept for the whole session. */
  readonly approvedAhead: ReadonlySet<string>;

  constructor(
    private readonly reader: LineReader,
    private readonly show: (lines: CallDescription) => void,
    private readonly describe: DescribeCall,
    private readonly yes: boolean,
    /** Called when the user presses Ctrl-C at the question: the turn should stop. */
    private readonly onInterrupt: () => void,
    private readonly extraScopes?: ApprovalScopeResolver,
    approvedAhead: Iterable<string> = [],
    private readonly network?: NetworkChoice,
  ) {
    this.approvedAhead = new Set(approvedAhead);
  }

  decide(toolName: string, input: unknown): 'ask' | 'allow' | 'not-needed' {
    const scope = approvalScopeOf(toolName, input, this.extraScopes);
    if (!scope) return 'not-needed';
    return this.yes || this.approvedAhead.has(scope.key) || this.always.has(scope.key) ? 'allow' : 'ask';
  }

  async ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
    // The file name and content came from the model: what is shown is exactly what will be written, controls made visible.
    const described = await this.describe(request);
    // Stopped while the preview was prepared (a slow read): the turn is over and the prompt is back.
    // Asking now would take the user's next message as the answer, and the status line would come
    // back with nobody left to stop it.
    if (signal?.aborted) return { approved: false, reason: 'The user interrupted.' };
    const description = { summary: sanitizeLine(described.summary), preview: sanitize(described.preview) };
    const scope = approvalScopeOf(request.toolName, request.input, this.extraScopes);
    this.show(description);
    const withNetwork = this.network?.offered(request) === true;
    while (true) {
      const always = scope?.oneTime ? '' : ` / [a]lways ${scope?.alwaysLabel ?? 'this session'}`;
      const network = withNetwork ? ' / [w]ith network' : '';
      const answer = await this.reader.read(`${description.summary}? [y]es / [n]o${always}${network} › `, {
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
      if (withNetwork && ['w', 'network', '联网'].includes(word)) {
        this.network?.grant(request.toolCallId);
        return { approved: true };
      }
      if (['a', 'always', '总是'].includes(word) && !scope?.oneTime) {
        this.always.add(scope?.key ?? request.toolName);
        return { approved: true };
      }
    }
  }
}
