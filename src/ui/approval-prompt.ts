import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest } from '../agent/turn-options.ts';
import { modeRule, type ApprovalMode } from '../tools/approval-mode.ts';
import { approvalScopeOf, type ApprovalScope, type ApprovalScopeResolver } from '../tools/approval-scope.ts';
import { approvalChoices, type ApprovalAnswer } from './approval-menu.ts';
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
  /** Grants the network to this call: its id and its input (`NetworkGrants`). */
  grant(request: ApprovalRequest): void;
}

/** The approval mode a policy follows, and the workspace auto-edit keeps edits inside. */
export interface ModeContext {
  /** Read at every decision: a switch (Shift+Tab, /mode) applies from the next call on. */
  mode: () => ApprovalMode;
  workspaceRoot: string;
}

const ASK_MODE: ModeContext = { mode: () => 'ask', workspaceRoot: process.cwd() };

const SAID_NO = 'The user said no to this call; nothing was changed. Ask them what they want instead.';

/** A denial with the user's own words, which the model reads in the tool result. */
export const saidNoBecause = (reason: string): string =>
  `The user said no to this call; nothing was changed. The user's reason: ${reason}`;

/** Print mode: nobody to ask, so a call that needs approval runs only with --yes. */
export function nonInteractiveApproval(
  yes: boolean,
  extraScopes?: ApprovalScopeResolver,
  /** Scope keys the user's settings approved ahead. */
  approvedAhead: readonly string[] = [],
  modes: ModeContext = ASK_MODE,
): ApprovalPolicy {
  return {
    decide(toolName, input) {
      const scope = approvalScopeOf(toolName, input, extraScopes);
      const rule = modeRule(modes.mode(), { toolName, input, kind: scope?.kind }, modes.workspaceRoot);
      if (typeof rule === 'object') return rule;
      if (!scope) return 'not-needed';
      if (rule === 'allow' || yes || approvedAhead.includes(scope.key)) return 'allow';
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
 * The REPL asks. On a terminal the question is a menu answered by one key — `y` yes, `a` always
 * (its scope said), `n` no, `t` no and a line for the reason, which the model reads; ↑/↓ and Enter
 * too; Esc says no. Readers without a menu get today's line question:
 * `write_file hello.txt (12 lines)? [y]es / [n]o / [a]lways this session`.
 * "Always" lasts until /approvals resets it or the program ends; what the settings approved ahead
 * stays (the user chose it in a file, not at a question). The mode decides first: plan refuses
 * what is not read-only, auto-edit allows file edits inside the workspace.
 */
export class InteractiveApproval implements ApprovalPolicy {
  /** Scope keys answered "always" in this session: what `/approvals` resets. */
  readonly always = new Set<string>();
  /** Scope keys the user's settings approved ahead (`permissions.allow`): kept for the whole session. */
  readonly approvedAhead: ReadonlySet<string>;

  constructor(
    private readonly reader: LineReader,
    /** Prints the summary and preview; awaited when it returns a promise (the diff view loads lazily). */
    private readonly show: (lines: CallDescription) => unknown,
    private readonly describe: DescribeCall,
    private readonly yes: boolean,
    /** Called when the user presses Ctrl-C at the question: the turn should stop. */
    private readonly onInterrupt: () => void,
    private readonly extraScopes?: ApprovalScopeResolver,
    approvedAhead: Iterable<string> = [],
    private readonly modes: ModeContext = ASK_MODE,
    private readonly network?: NetworkChoice,
  ) {
    this.approvedAhead = new Set(approvedAhead);
  }

  decide(toolName: string, input: unknown): 'ask' | 'allow' | { deny: string } | 'not-needed' {
    const scope = approvalScopeOf(toolName, input, this.extraScopes);
    const rule = modeRule(this.modes.mode(), { toolName, input, kind: scope?.kind }, this.modes.workspaceRoot);
    if (typeof rule === 'object') return rule;
    if (!scope) return 'not-needed';
    return rule === 'allow' || this.yes || this.approvedAhead.has(scope.key) || this.always.has(scope.key) ? 'allow' : 'ask';
  }

  async ask(request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> {
    // The file name and content came from the model: what is shown is exactly what will be written, controls made visible.
    const described = await this.describe(request);
    // Stopped while the preview was prepared (a slow read): the turn is over and the prompt is back.
    // Asking now would take the user's next message as the answer, and the status line would come
    // back with nobody left to stop it.
    if (signal?.aborted) return { approved: false, reason: 'The user interrupted.' };
    const description: CallDescription = {
      summary: sanitizeLine(described.summary),
      preview: sanitize(described.preview),
      ...(described.previewFormat && { previewFormat: described.previewFormat }),
    };
    const scope = approvalScopeOf(request.toolName, request.input, this.extraScopes);
    await this.show(description);
    const withNetwork = this.network?.offered(request) === true;
    const answer = this.reader.choose
      ? await this.chooseAnswer(description.summary, scope, withNetwork)
      : await this.typedAnswer(description.summary, scope, withNetwork);
    switch (answer) {
      case 'yes':
        return { approved: true };
      case 'network':
        this.network?.grant(request);
        return { approved: true };
      case 'always':
        this.always.add(scope?.key ?? request.toolName);
        return { approved: true };
      case 'no':
        return { approved: false, reason: SAID_NO };
      case 'tell':
        return this.denialWithReason();
      case 'interrupt':
        this.onInterrupt();
        return { approved: false, reason: 'The user interrupted.' };
      case 'eof':
        return { approved: false, reason: 'The user did not answer; nothing was changed.' };
    }
  }

  /** The one-key menu (a terminal). Esc is a plain no. */
  private async chooseAnswer(summary: string, scope: ApprovalScope | undefined, withNetwork: boolean): Promise<ApprovalAnswer | 'interrupt' | 'eof'> {
    const choices = approvalChoices(scope, { withNetwork });
    const picked = await this.reader.choose!(`${summary}?`, choices);
    if (picked.kind === 'escape') return 'no';
    if (picked.kind !== 'choice') return picked.kind;
    return choices.find((choice) => choice.key === picked.key)?.answer ?? 'no';
  }

  /** A line question, asked again until the answer is understood. */
  private async typedAnswer(summary: string, scope: ApprovalScope | undefined, withNetwork: boolean): Promise<ApprovalAnswer | 'interrupt' | 'eof'> {
    while (true) {
      const always = scope?.oneTime ? '' : ` / [a]lways ${scope?.alwaysLabel ?? 'this session'}`;
      const network = withNetwork ? ' / [w]ith network' : '';
      const answer = await this.reader.read(`${summary}? [y]es / [n]o${always}${network} › `, { remember: false });
      if (answer.kind !== 'line') return answer.kind;
      const word = answer.line.trim().toLowerCase();
      if (['y', 'yes', '是', '好', 'ok'].includes(word)) return 'yes';
      if (['n', 'no', '否', '不'].includes(word)) return 'no';
      if (withNetwork && ['w', 'network', '联网'].includes(word)) return 'network';
      if (['a', 'always', '总是'].includes(word) && !scope?.oneTime) return 'always';
    }
  }

  /** `t`: a line for the reason; an empty one, Esc or Ctrl-D is a plain no. */
  private async denialWithReason(): Promise<ApprovalDecision> {
    const answer = await this.reader.read('Tell the model why (Enter sends) › ', { remember: false });
    const reason = answer.kind === 'line' ? answer.line.trim() : '';
    return { approved: false, reason: reason === '' ? SAID_NO : saidNoBecause(reason) };
  }
}
