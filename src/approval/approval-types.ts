import type { ApprovalDecision, ApprovalRequest } from '../agent/loop/turn-options.ts';
import type { ApprovalMode } from '../tools/approval-mode.ts';
import type { ApprovalScope, ToolKind } from '../tools/tool-spec.ts';

/** What a front end is asked: the call, what an "always" would cover, and what kind of call it is. */
export interface ApprovalQuestion {
  request: ApprovalRequest;
  scope: ApprovalScope;
  /** Undefined for a tool that declared no kind (asked about because nothing says it only reads). */
  kind?: ToolKind;
}

/** The user's answer; `always` remembers the question's scope for the session. */
export type ApprovalAnswer = ApprovalDecision & { always?: true };

/** A front end that can ask (the REPL's menu or typed question; later an editor over a protocol). */
export interface ApprovalAsker {
  /** Resolves with the user's answer; must settle when `signal` aborts. */
  ask(question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalAnswer>;
}

/** A front end where nobody can be asked (print mode, a REPL reading a pipe): what the model is told instead. */
export interface NobodyToAsk {
  cannotAsk(toolName: string): string;
}

/** The approval mode a policy follows, and the workspace auto-edit keeps edits inside. */
export interface ModeContext {
  /** Read at every decision: a switch (Shift+Tab, /mode) applies from the next call on. */
  mode: () => ApprovalMode;
  workspaceRoot: string;
}
