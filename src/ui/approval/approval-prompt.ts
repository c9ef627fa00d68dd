import type { ApprovalRequest } from '../../agent/loop/turn-options.ts';
import type { ApprovalAnswer, ApprovalAsker, ApprovalQuestion } from '../../approval/approval-types.ts';
import type { ApprovalScope, CallDescription } from '../../tools/tool-spec.ts';
import { approvalChoices, type ApprovalAnswer as MenuAnswer } from './approval-menu.ts';
import type { LineReader } from '../input/line-reader-contract.ts';
import { sanitize, sanitizeLine } from '../../shared/text/sanitize.ts';

/** What the user is shown before saying yes or no. */
export type DescribeCall = (request: ApprovalRequest) => Promise<CallDescription>;

/**
 * The "run with network" answer for a sandboxed command: offered when `offered` says so (the
 * sandbox is on and the network is not already allowed); `grant` lets that one call reach it.
 */
export interface NetworkChoice {
  offered(question: ApprovalQuestion): boolean;
  /** Grants the network to this call: its id and its input (`NetworkGrants`). */
  grant(request: ApprovalRequest): void;
}

const SAID_NO = 'The user said no to this call; nothing was changed. Ask them what they want instead.';

/** A denial with the user's own words, which the model reads in the tool result. */
const saidNoBecause = (reason: string): string =>
  `The user said no to this call; nothing was changed. The user's reason: ${reason}`;

export interface TerminalAskerOptions {
  reader: LineReader;
  /** Prints the summary and preview; awaited when it returns a promise (the diff view loads lazily). */
  show: (lines: CallDescription) => unknown;
  describe: DescribeCall;
  /** Called when the user presses Ctrl-C at the question: the turn should stop. */
  onInterrupt: () => void;
  network?: NetworkChoice;
}

/**
 * How the REPL asks; whether to ask is decided by the one policy (`approval/approval-policy.ts`).
 * On a terminal the question is a menu answered by one key — `y` yes, `a` always (its scope
 * said), `n` no, `t` no and a line for the reason, which the model reads; ↑/↓ and Enter too; Esc
 * says no. Readers without a menu get a line question:
 * `write_file hello.txt (12 lines)? [y]es / [n]o / [a]lways this session`.
 */
export class TerminalAsker implements ApprovalAsker {
  constructor(private readonly options: TerminalAskerOptions) {}

  async ask(question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const { request, scope } = question;
    // The file name and content came from the model: what is shown is exactly what will be written, controls made visible.
    const described = await this.options.describe(request);
    // Stopped while the preview was prepared (a slow read): the turn is over and the prompt is back.
    // Asking now would take the user's next message as the answer, and the status line would come
    // back with nobody left to stop it.
    if (signal?.aborted) return { approved: false, reason: 'The user interrupted.' };
    const description: CallDescription = {
      // A subagent's call is asked in its name: `explore › run_command …`.
      summary: `${request.agent ? `${sanitizeLine(request.agent)} › ` : ''}${sanitizeLine(described.summary)}`,
      preview: sanitize(described.preview),
      ...(described.previewFormat && { previewFormat: described.previewFormat }),
      ...(described.fullPreview !== undefined && { fullPreview: sanitize(described.fullPreview) }),
    };
    await this.options.show(description);
    const withNetwork = this.options.network?.offered(question) === true;
    const answer = this.options.reader.choose
      ? await this.chooseAnswer(description, scope, withNetwork)
      : await this.typedAnswer(description.summary, scope, withNetwork);
    switch (answer) {
      case 'yes':
        return { approved: true };
      case 'network':
        this.options.network?.grant(request);
        return { approved: true };
      case 'always':
        return { approved: true, always: true };
      case 'no':
        return { approved: false, reason: SAID_NO };
      case 'tell':
        return this.denialWithReason();
      case 'interrupt':
        this.options.onInterrupt();
        return { approved: false, reason: 'The user interrupted.' };
      case 'eof':
        return { approved: false, reason: 'The user did not answer; nothing was changed.' };
    }
  }

  /** The one-key menu (a terminal). Esc is a plain no. */
  private async chooseAnswer(description: CallDescription, scope: ApprovalScope, withNetwork: boolean): Promise<MenuAnswer | 'interrupt' | 'eof'> {
    const choices = approvalChoices(scope, { withNetwork });
    const whole = description.fullPreview;
    // What the preview left out can be read before answering: `v` shows it whole, then asks again.
    const viewChoice = whole === undefined ? [] : [{ key: 'v', label: 'View it whole, then answer' }];
    const picked = await this.options.reader.choose!(`${description.summary}?`, [...choices, ...viewChoice]);
    if (picked.kind === 'escape') return 'no';
    if (picked.kind !== 'choice') return picked.kind;
    if (picked.key === 'v' && whole !== undefined) {
      await this.options.show({ summary: description.summary, preview: whole });
      return this.chooseAnswer({ ...description, fullPreview: undefined }, scope, withNetwork);
    }
    return choices.find((choice) => choice.key === picked.key)?.answer ?? 'no';
  }

  /** A line question, asked again until the answer is understood. */
  private async typedAnswer(summary: string, scope: ApprovalScope, withNetwork: boolean): Promise<MenuAnswer | 'interrupt' | 'eof'> {
    while (true) {
      const always = scope.oneTime ? '' : ` / [a]lways ${scope.alwaysLabel}`;
      const network = withNetwork ? ' / [w]ith network' : '';
      const answer = await this.options.reader.read(`${summary}? [y]es / [n]o${always}${network} › `, { remember: false });
      if (answer.kind !== 'line') return answer.kind;
      const word = answer.line.trim().toLowerCase();
      if (['y', 'yes', '是', '好', 'ok'].includes(word)) return 'yes';
      if (['n', 'no', '否', '不'].includes(word)) return 'no';
      if (withNetwork && ['w', 'network', '联网'].includes(word)) return 'network';
      if (['a', 'always', '总是'].includes(word) && !scope.oneTime) return 'always';
    }
  }

  /** `t`: a line for the reason; an empty one, Esc or Ctrl-D is a plain no. */
  private async denialWithReason(): Promise<ApprovalAnswer> {
    const answer = await this.options.reader.read('Tell the model why (Enter sends) › ', { remember: false });
    const reason = answer.kind === 'line' ? answer.line.trim() : '';
    return { approved: false, reason: reason === '' ? SAID_NO : saidNoBecause(reason) };
  }
}
