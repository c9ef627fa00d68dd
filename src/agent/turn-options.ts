import type { LanguageModel, ModelMessage, ToolSet, UserModelMessage } from 'ai';
import type { ProviderContext } from './describe-error.ts';
import type { TokenUsage } from './events.ts';
import type { Conversation } from './conversation.ts';
import type { TurnLimits } from './guards.ts';

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
  /** `ask` the user, `allow` without asking, `deny` with a reason the model reads, or `not-needed` (nothing to approve). */
  decide(toolName: string, input: unknown): 'ask' | 'allow' | { deny: string } | 'not-needed';
  /** Asks the user; resolves with their answer. Must settle when `signal` aborts. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
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
  provider: ProviderContext;
  fitMessages?: FitMessages;
  /** Usage the turn's token budget counts beside its own steps': its subagents'. */
  usageBeside?: () => TokenUsage;
  /** Called with the provider-reported usage of each kept step and the messages that produced it. */
  onStepUsage?: (sent: readonly ModelMessage[], usage: TokenUsage) => void;
}
