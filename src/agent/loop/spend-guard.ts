import type { TokenUsage } from '../../shared/token-usage.ts';

/** The stop reasons of the budgets a turn's requests count against. */
export type BudgetStopReason = 'cost-budget' | 'request-budget' | 'time-budget';

/** A budget that ends the turn, and the one line the user reads: which budget, what was spent, how to raise it. */
export interface BudgetStop {
  reason: BudgetStopReason;
  message: string;
}

/**
 * The budgets in money, requests and time that a turn's requests count against (the turn's own and
 * the session's). The runtime keeps the spend; a subagent's loop is handed its parent's guard, so its
 * requests count against the same budgets.
 */
export interface SpendGuard {
  /** Before a model request: a budget already used up ends the turn before anything is sent. */
  beforeRequest(): BudgetStop | undefined;
  /**
   * After a request, with the usage it reported: lines to tell the user (a budget 80% used, said once;
   * a model with no known price, said once), and the budget it used up, if any.
   */
  afterRequest(usage: TokenUsage): { notices: string[]; stop?: BudgetStop };
  /** The time the turn may still take under its time budgets, in ms; undefined when none applies. */
  timeLeftMs(): number | undefined;
}
