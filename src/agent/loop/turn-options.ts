import type { LanguageModel, ModelMessage, ToolSet, UserModelMessage } from 'ai';
import type { ProviderContext } from '../../providers/errors/provider-errors.ts';
import type { TokenUsage } from '../../shared/token-usage.ts';
import type { Conversation } from '../context/conversation.ts';
import type { TurnLimits } from './guards.ts';
import type { SpendGuard } from './spend-guard.ts';

/** A tool call waiting for the user's yes or no. */
export interface ApprovalRequest {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The subagent that made the call (`explore`), named in the question; absent for the main agent's own. */
  agent?: string;
}

export interface ApprovalDecision {
  approved: boolean;
  /** Told to the model when the call is denied. */
  reason?: string;
}

/**
 * Who decides about tool calls: the loop asks before each call runs. `Approval`
 * (`approval/approval-policy.ts`) is the one policy; front ends supply only how to ask.
 */
export interface ApprovalPolicy {
  /**
   * `ask` the user, `allow` without asking, `deny` with a reason the model reads (`unanswered` when
   * only because nobody can be asked), or `not-needed` (nothing to approve). `hook` is what a
   * PreToolUse hook said: its `allow` spares the question, never a refusal (plan mode); its `ask` asks.
   */
  decide(toolName: string, input: unknown, hook?: 'allow' | 'ask'): ApprovalVerdict;
  /** Asks the user; resolves with their answer. Must settle when `signal` aborts. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

export type ApprovalVerdict = 'ask' | 'allow' | { deny: string; unanswered?: true } | 'not-needed';

/** A call as the hooks see it. */
export interface HookedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** Lines for the user from the hooks (a `systemMessage`, a hook that failed), shown as notices. */
export interface HookNotes {
  notes: string[];
}

/**
 * The user's hooks at the points the loop stands on (`hooks/`). Each resolves, never throws, and
 * settles when `signal` aborts. Approval stays the policy's: a hook's answer is one more input to it.
 */
export interface LoopHooks {
  /** PreToolUse: `deny` (with the reason the model reads), `allow`, `ask`, and a rewritten input. */
  beforeTool(call: HookedCall, signal: AbortSignal): Promise<HookNotes & { decision?: 'allow' | 'deny' | 'ask'; reason?: string; updatedInput?: unknown }>;
  /** PermissionRequest: the user would be asked; a hook may answer for them (and rewrite the input). */
  permissionRequest(call: HookedCall, signal: AbortSignal): Promise<HookNotes & { decision?: 'allow' | 'deny'; reason?: string; updatedInput?: unknown }>;
  /** Notification: Sylvan is waiting for the user. Does not wait for the hooks. */
  notify(message: string, kind: string): void;
  /** PostToolUse / PostToolUseFailure: context for the model, or what it reads instead of the result. */
  afterTool(call: HookedCall, outcome: { ok: true; output: unknown } | { ok: false; error: string }, signal: AbortSignal): Promise<HookNotes & { context?: string; replacedOutput?: string }>;
  /** Stop: a reason to keep the turn going (the model reads it), or nothing. `active` after a continuation it asked for. */
  beforeStop(lastText: string, active: boolean, signal: AbortSignal): Promise<HookNotes & { continueWith?: string }>;
  /** The event `beforeStop` runs, as the model and the user are told of it: a subagent's is SubagentStop. Default Stop. */
  readonly stopEvent?: 'Stop' | 'SubagentStop';
}

/** What the step sees of the history: the fitted window, and a notice when it left turns out. */
export type FitMessages = (messages: readonly ModelMessage[]) => { messages: ModelMessage[]; notice?: string };

/** Everything one turn of `agentLoop` needs. */
export interface TurnOptions {
  model: LanguageModel;
  /** The tools the model is offered; the loop runs their calls itself, after each model request. */
  tools: ToolSet;
  instructions: string;
  conversation: Conversation;
  /** The user's words (and pictures, as file parts); appended to the history before anything is sent. */
  userMessage: UserModelMessage['content'];
  limits: TurnLimits;
  /** Bounds each model request, including a server that accepts the connection and says nothing. */
  stepTimeoutMs: number;
  /** Bounds each tool execution; a slow tool's result becomes an error the model reads. */
  toolTimeoutMs: number;
  /** A tool's own limit where its spec declares one (a command's own timeout may be longer); else `toolTimeoutMs`. */
  toolTimeoutOf?: (toolName: string) => number | undefined;
  maxRetries: number;
  /** The user's interrupt (Ctrl-C). */
  abortSignal: AbortSignal;
  approval: ApprovalPolicy;
  /** The user's hooks; absent, none run. */
  hooks?: LoopHooks;
  provider: ProviderContext;
  fitMessages?: FitMessages;
  /** The budgets in money, requests and time this turn's requests count against. */
  spend?: SpendGuard;
  /** Whether a finished call's result reports a failure (a command's non-zero exit), as its tool's spec says. */
  resultFailed?: (toolName: string, output: unknown) => boolean;
  /** Usage the turn's token budget counts beside its own steps': its subagents'. */
  usageBeside?: () => TokenUsage;
  /** Called with the provider-reported usage of each kept step and the messages that produced it. */
  onStepUsage?: (sent: readonly ModelMessage[], usage: TokenUsage) => void;
}
