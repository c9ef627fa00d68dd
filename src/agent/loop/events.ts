import type { TokenUsage } from '../../shared/token-usage.ts';
import type { RetryNotice } from '../../providers/retry-notice.ts';
import type { TodoItem } from '../../tools/todo/todo-list.ts';

/**
 * The contract between the agent loop and the terminal. The loop yields these and nothing
 * else; renderers and tests depend on them, never on the SDK's own stream parts.
 */

/** Why a turn ended. Print mode maps them to exit codes (see `exitCodeFor`). */
export type StopReason =
  | 'completed'
  | 'max-steps'
  | 'repeated-call'
  | 'token-budget'
  | 'cost-budget'
  | 'request-budget'
  | 'time-budget'
  | 'timeout'
  | 'aborted'
  | 'error'
  /** A hook refused the prompt (UserPromptSubmit): nothing was sent. */
  | 'blocked';


/**
 * What a turn cost, in the provider's currency (`CNY` for DashScope's mainland endpoint, `USD`
 * otherwise), estimated from list prices. Absent when the model has no known price.
 */
export interface TurnCost {
  currency: string;
  /** This turn. */
  turn: number;
  /** The session so far, this turn included (and the turns before a resume). */
  session: number;
  /** Share of the turn's input served from the provider's cache, 0..1. */
  cachedShare: number;
  /** What the cache saved on the turn's input, in the same currency. */
  saved: number;
}


/** What ended a tool call that did not finish by itself. */
export type ToolStop = 'interrupted' | 'timed-out';

export type AgentEvent =
  | { type: 'step-start'; step: number }
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-result'; toolCallId: string; toolName: string; output: unknown }
  /** `stopped`: the call did not end by itself; the user's interrupt or the loop's per-tool timeout ended it. */
  | { type: 'tool-error'; toolCallId: string; toolName: string; error: string; stopped?: ToolStop }
  | { type: 'tool-denied'; toolCallId: string; toolName: string; reason?: string }
  /** Live output of a running tool (a command's latest lines), for the user's eyes only: the model reads the result. */
  | { type: 'tool-progress'; toolCallId: string; toolName: string; text: string }
  /** The model rewrote its todo list (`todo_write`): the whole list as it is now, drawn as a checklist. */
  | { type: 'todo'; items: readonly TodoItem[] }
  /** Something the user should know that is not an answer: context trimmed, a retry, a warning. */
  | { type: 'notice'; message: string }
  /**
   * A model request failed in a way worth another try, and is sent again after `delayMs` (the
   * user's interrupt stops the wait). `attempt` counts the retries, 1 for the first, of `maxRetries`.
   */
  | ({ type: 'retry' } & RetryNotice)
  | { type: 'step-end'; step: number; usage: TokenUsage; finishReason: string }
  /**
   * An event of a subagent started by the `task` call `toolCallId`: `agentId` tells the subagents
   * of a session apart, `agent` names its definition. Its `turn-end` is the subagent's end.
   */
  | { type: 'subagent'; agentId: string; agent: string; description: string; toolCallId: string; event: AgentEvent }
  | {
      type: 'turn-end';
      stopReason: StopReason;
      usage: TokenUsage;
      steps: number;
      /** The last step's finish reason (`stop`, `tool-calls`, `length`, …), when a step finished. */
      finishReason?: string;
      /** One line for the user when the turn did not complete: what happened and what to do. */
      message?: string;
      /** The underlying error's stack, shown only with SYLVAN_DEBUG=1. */
      debug?: string;
      /** What the turn cost, when the model's price is known (added by the runtime). */
      cost?: TurnCost;
    };


/** Exit code of print mode for a stop reason: 0 completed, 1 error, 3 a guard, a timeout or a hook's block, 130 interrupt. */
export function exitCodeFor(reason: StopReason): number {
  switch (reason) {
    case 'completed':
      return 0;
    case 'error':
      return 1;
    case 'aborted':
      return 130;
    default:
      return 3;
  }
}
