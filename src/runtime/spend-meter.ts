import type { TokenUsage } from '../shared/token-usage.ts';
import type { BudgetStop, SpendGuard } from '../agent/loop/spend-guard.ts';
import { BUDGET_SETTINGS, type BudgetLimit, type BudgetLimits, type BudgetName } from '../config/settings/budget-settings.ts';
import { estimateCosts, formatMoney, type CostEstimate, type Currency, type Pricing } from '../models/model-catalogue.ts';
import type { SessionSpend } from '../session/store.ts';

/** Past this share of a budget, a dimmed line says so, once. */
const WARN_SHARE = 0.8;

/** What the meter needs to know about now: the budgets, the current model and how it is priced. */
export interface SpendMeterOptions {
  budgets: BudgetLimits;
  model: () => string;
  pricing: () => Pricing;
  /** Milliseconds; injectable for tests. */
  now?: () => number;
}

/**
 * The session's spend in money, requests and time, and the budgets it counts against. Money is the
 * catalogue's (or the user's) list price in the provider's currency, an estimate; a model with no
 * known price is said once, and the money budgets do not apply to its requests. Time is the
 * wall-clock time spent in turns (a REPL waiting for the user spends none). `--continue` resumes
 * the money and the requests from the session file; time counts from this start.
 */
export class SpendMeter {
  cost = 0;
  requests = 0;
  private activeMs = 0;
  private readonly warned = new Set<string>();
  private readonly unpricedTold = new Set<string>();
  private readonly now: () => number;

  constructor(
    private readonly options: SpendMeterOptions,
    resumed?: SessionSpend,
  ) {
    this.now = options.now ?? Date.now;
    this.resume(resumed);
  }

  get currency(): Currency {
    return this.options.pricing().currency;
  }

  /** Starts over from a saved session's spend (or from nothing: /clear). */
  resume(spend: SessionSpend | undefined): void {
    this.cost = spend && spend.currency === this.currency ? spend.cost : 0;
    this.requests = spend?.requests ?? 0;
    this.activeMs = 0;
    this.warned.clear();
  }

  /** What `usage` costs at the current model's price, or undefined when it has none. */
  costOf(usage: TokenUsage, model = this.options.model()): CostEstimate | undefined {
    return estimateCosts(model, usage, this.options.pricing());
  }

  /** Counts a request made outside a turn (a /compact summary); returns its cost, for the session file. */
  record(usage: TokenUsage): CostEstimate | undefined {
    this.requests++;
    const cost = this.costOf(usage);
    if (cost) this.cost += cost.total;
    return cost;
  }

  /** The guard for one turn; `end()` adds its time to the session's. */
  startTurn(model = this.options.model()): TurnSpend {
    return new TurnSpend(this, model, this.now());
  }

  /** What a turn's `TurnSpend` shares with the session: the budgets, the clock, the time spent, the lines said once. */
  get internals() {
    return {
      budgets: this.options.budgets,
      now: this.now,
      activeMs: () => this.activeMs,
      addActive: (ms: number) => (this.activeMs += ms),
      warnOnce: (key: string) => !this.warned.has(key) && Boolean(this.warned.add(key)),
      unpricedOnce: (model: string) => !this.unpricedTold.has(model) && Boolean(this.unpricedTold.add(model)),
    };
  }
}

/** One turn's spend: the `SpendGuard` the loop consults before and after each request. */
export class TurnSpend implements SpendGuard {
  cost = 0;
  /** The turn's input as billed and as it would be without a cache, for the turn line and `--json`; `priced` once a request had a price. */
  usageCost: { input: number; inputWithoutCache: number; priced: boolean } = { input: 0, inputWithoutCache: 0, priced: false };
  private ended = false;

  constructor(
    private readonly meter: SpendMeter,
    private readonly model: string,
    private readonly startedAt: number,
  ) {}

  beforeRequest(): BudgetStop | undefined {
    return this.over(true).stop;
  }

  afterRequest(usage: TokenUsage, model = this.model): { notices: string[]; stop?: BudgetStop } {
    const { budgets, unpricedOnce } = this.meter.internals;
    this.meter.requests++;
    const notices: string[] = [];
    const cost = this.meter.costOf(usage, model);
    if (cost) {
      this.cost += cost.total;
      this.meter.cost += cost.total;
      this.usageCost = { input: this.usageCost.input + cost.input, inputWithoutCache: this.usageCost.inputWithoutCache + cost.inputWithoutCache, priced: true };
    } else if ((budgets.turnCostBudget || budgets.sessionCostBudget) && unpricedOnce(model)) {
      notices.push(`(no price is known for ${model}: the money budgets do not apply to it; set its price under "prices" in $SYLVAN_HOME/settings.json)`);
    }
    const verdict = this.over(false);
    return { notices: [...notices, ...verdict.notices], ...(verdict.stop && { stop: verdict.stop }) };
  }

  /** The same turn's guard for requests to another model (a subagent's own): priced at that model, counted in this turn. */
  forModel(model: string): SpendGuard {
    return {
      beforeRequest: () => this.beforeRequest(),
      afterRequest: (usage) => this.afterRequest(usage, model),
      timeLeftMs: () => this.timeLeftMs(),
    };
  }

  timeLeftMs(): number | undefined {
    const { budgets, activeMs } = this.meter.internals;
    const elapsed = this.elapsedMs();
    const left = [
      budgets.turnTimeBudget && budgets.turnTimeBudget.limit * 1000 - elapsed,
      budgets.sessionTimeBudget && budgets.sessionTimeBudget.limit * 1000 - activeMs() - elapsed,
    ].filter((value): value is number => typeof value === 'number');
    return left.length > 0 ? Math.max(0, Math.min(...left)) : undefined;
  }

  /** Adds the turn's time to the session's; once. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.meter.internals.addActive(this.elapsedMs());
  }

  private elapsedMs(): number {
    return this.meter.internals.now() - this.startedAt;
  }

  /** Each budget in force, what is spent against it, and the first one used up; 80% warnings once each. */
  private over(before: boolean): { notices: string[]; stop?: BudgetStop } {
    const { budgets, activeMs, warnOnce } = this.meter.internals;
    const elapsed = this.elapsedMs();
    const currency = this.meter.currency;
    const spent: Record<BudgetName, number> = {
      turnCostBudget: this.cost,
      sessionCostBudget: this.meter.cost,
      sessionRequestBudget: this.meter.requests,
      turnTimeBudget: elapsed / 1000,
      sessionTimeBudget: (activeMs() + elapsed) / 1000,
    };
    const notices: string[] = [];
    for (const name of Object.keys(BUDGET_SETTINGS) as BudgetName[]) {
      const budget = budgets[name];
      if (!budget) continue;
      // Spent money before a request counts only for the session: a new turn starts at nothing.
      if (spent[name] >= budget.limit) return { notices, stop: { reason: reasonOf(name), message: stopLine(name, spent[name], budget, currency) } };
      const key = name.startsWith('turn') ? `${name}@${this.startedAt}` : name;
      if (!before && spent[name] >= budget.limit * WARN_SHARE && warnOnce(key)) {
        notices.push(`(${Math.round((spent[name] / budget.limit) * 100)}% of the ${BUDGET_SETTINGS[name].what} used: ${ofLimit(name, spent[name], budget.limit, currency)})`);
      }
    }
    return { notices };
  }
}

function reasonOf(name: BudgetName): BudgetStop['reason'] {
  const unit = BUDGET_SETTINGS[name].unit;
  return unit === 'money' ? 'cost-budget' : unit === 'requests' ? 'request-budget' : 'time-budget';
}

/** `¥0.0135 of ¥0.0100`, `2 of 2 requests`, `1.2 of 1 s`. */
function ofLimit(name: BudgetName, spent: number, limit: number, currency: Currency): string {
  const unit = BUDGET_SETTINGS[name].unit;
  if (unit === 'money') return `${formatMoney(spent, currency)} of ${formatMoney(limit, currency)}`;
  if (unit === 'requests') return `${spent} of ${limit} request${limit === 1 ? '' : 's'}`;
  return `${spent < 10 ? spent.toFixed(1) : Math.round(spent)} of ${limit} s`;
}

/** Which budget, what was spent, how to raise it. */
function stopLine(name: BudgetName, spent: number, budget: BudgetLimit, currency: Currency): string {
  const setting = BUDGET_SETTINGS[name];
  const scope = name.startsWith('turn') ? 'this turn' : 'this session';
  const raise = budget.loweredBy
    ? `the folder lowered it (${budget.loweredBy}); raise it there`
    : `raise it with ${setting.flag}, ${setting.variable} or "${name}" in settings`;
  return `Stopped: ${scope} reached its ${setting.what} (${ofLimit(name, spent, budget.limit, currency)}); ${raise}.`;
}
