import type { ModelPrice } from '../../models/model-catalogue.ts';
import type { SettingsLayer } from './load-settings.ts';

type Environment = Record<string, string | undefined>;

/**
 * The budgets beside the per-turn token budget and step limit, each a flag, a variable and a
 * settings key (this table; docs/budgets.md quotes it). Money is in the provider's currency.
 */
export const BUDGET_SETTINGS = {
  turnCostBudget: { flag: '--turn-cost-budget', variable: 'SYLVAN_TURN_COST_BUDGET', unit: 'money', what: 'turn cost budget' },
  sessionCostBudget: { flag: '--session-cost-budget', variable: 'SYLVAN_SESSION_COST_BUDGET', unit: 'money', what: 'session cost budget' },
  sessionRequestBudget: { flag: '--session-request-budget', variable: 'SYLVAN_SESSION_REQUEST_BUDGET', unit: 'requests', what: 'session request budget' },
  turnTimeBudget: { flag: '--turn-time-budget', variable: 'SYLVAN_TURN_TIME_BUDGET', unit: 'seconds', what: 'turn time budget' },
  sessionTimeBudget: { flag: '--session-time-budget', variable: 'SYLVAN_SESSION_TIME_BUDGET', unit: 'seconds', what: 'session time budget' },
} as const;

export type BudgetName = keyof typeof BUDGET_SETTINGS;

/** A budget in force: its limit, and the folder file that lowered it when one did (the line says where to raise it). */
export interface BudgetLimit {
  limit: number;
  /** Set when the limit came from the folder (`.env` or `.sylvan/settings.json`), which only ever lowers it. */
  loweredBy?: string;
}

export type BudgetLimits = Partial<Record<BudgetName, BudgetLimit>>;

const DECIMAL = /^[0-9]{1,12}(\.[0-9]{1,12})?$/;
const WHOLE = /^[0-9]{1,12}$/;

/** A budget's value from text or a settings number; a one-line error names where it came from. */
function parseBudget(name: BudgetName, raw: unknown, source: string, fail: (message: string) => Error): number {
  const { unit } = BUDGET_SETTINGS[name];
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  const pattern = unit === 'requests' ? WHOLE : DECIMAL;
  const value = pattern.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value) || value <= 0) {
    const shown = JSON.stringify(raw)?.slice(0, 40) ?? String(raw);
    const kind = unit === 'requests' ? 'a whole number of requests above 0' : unit === 'seconds' ? 'a number of seconds above 0' : "an amount above 0 in the provider's currency, like 0.5";
    throw fail(`${source}: must be ${kind}, got ${shown}.`);
  }
  return value;
}

export interface BudgetSources {
  /** The parsed flags, by flag name without dashes. */
  flags: Record<string, unknown>;
  /** The real environment: trusted. */
  environment: Environment;
  /** `.env` in the folder: may only lower a budget. */
  dotenv: Environment;
  /** The settings files, user (trusted) first; a project's file may only lower. */
  layers: readonly SettingsLayer[];
  fail: (message: string) => Error;
}

/**
 * Each budget: the user's own choice (flag, then environment, then `$SYLVAN_HOME/settings.json`),
 * then lowered — never raised — by what the folder says (`.env`, `.sylvan/settings.json`): a cloned
 * repository cannot lift a cap the user set, though it may set a tighter one.
 */
export function resolveBudgets(sources: BudgetSources): BudgetLimits {
  const limits: BudgetLimits = {};
  for (const [name, setting] of Object.entries(BUDGET_SETTINGS) as [BudgetName, (typeof BUDGET_SETTINGS)[BudgetName]][]) {
    const flag = sources.flags[setting.flag.slice(2)];
    const userLayer = sources.layers.find((layer) => layer.trusted);
    const own =
      flag !== undefined
        ? parseBudget(name, flag, setting.flag, sources.fail)
        : nonBlank(sources.environment[setting.variable]) !== undefined
          ? parseBudget(name, sources.environment[setting.variable], setting.variable, sources.fail)
          : userLayer?.values[name] !== undefined && userLayer.values[name] !== null
            ? parseBudget(name, userLayer.values[name], `${userLayer.file}: ${name}`, sources.fail)
            : undefined;
    let limit: BudgetLimit | undefined = own === undefined ? undefined : { limit: own };
    const folder: { value: unknown; label: string }[] = [
      ...(nonBlank(sources.dotenv[setting.variable]) !== undefined ? [{ value: sources.dotenv[setting.variable], label: `${setting.variable} in .env` }] : []),
      ...sources.layers
        .filter((layer) => !layer.trusted && layer.values[name] !== undefined && layer.values[name] !== null)
        .map((layer) => ({ value: layer.values[name], label: `${name} in ${layer.file}` })),
    ];
    for (const lower of folder) {
      const value = parseBudget(name, lower.value, lower.label, sources.fail);
      if (limit === undefined || value < limit.limit) limit = { limit: value, loweredBy: lower.label };
    }
    if (limit) limits[name] = limit;
  }
  return limits;
}

const BREAKER_KEYS = ['nearIdenticalCalls', 'cycleRepeats', 'sameFailures', 'stepsWithoutProgress'] as const;

/** The circuit breaker's thresholds (the loop's `BreakerThresholds`), as settings name them. */
export type BreakerSettings = Record<(typeof BREAKER_KEYS)[number], number>;

/**
 * Loose enough for a long task (paging a file, a test run after each edit: the suite's long
 * scripted tasks complete), tight enough that a runaway loop ends within a few requests.
 */
export const DEFAULT_BREAKER_SETTINGS: BreakerSettings = {
  nearIdenticalCalls: 6,
  cycleRepeats: 2,
  sameFailures: 3,
  stepsWithoutProgress: 4,
};

/**
 * Settings `circuitBreaker`: the user's thresholds over the defaults; a folder's file may only make
 * one stricter (lower). Each a whole number from 1 (2 for `cycleRepeats`).
 */
export function resolveBreaker(layers: readonly SettingsLayer[], fail: (message: string) => Error): BreakerSettings {
  const thresholds: BreakerSettings = { ...DEFAULT_BREAKER_SETTINGS };
  for (const layer of layers) {
    const raw = layer.values.circuitBreaker;
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'object' || Array.isArray(raw)) throw fail(`${layer.file}: circuitBreaker: must be an object like { "sameFailures": 3 }.`);
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
      if (!(BREAKER_KEYS as readonly string[]).includes(key)) throw fail(`${layer.file}: circuitBreaker.${key}: unknown; known: ${BREAKER_KEYS.join(', ')}.`);
      const least = key === 'cycleRepeats' ? 2 : 1;
      if (!Number.isInteger(value) || (value as number) < least || (value as number) > 1000) {
        throw fail(`${layer.file}: circuitBreaker.${key}: must be a whole number from ${least} to 1000, got ${JSON.stringify(value)}.`);
      }
      const name = key as keyof BreakerSettings;
      thresholds[name] = layer.trusted ? (value as number) : Math.min(thresholds[name], value as number);
    }
  }
  return thresholds;
}

/**
 * Settings `prices`: the user's own prices per million tokens, in the provider's currency, by model
 * name or prefix. Only the user's file counts: a folder's prices could make a budget look unspent.
 */
export function resolvePrices(layers: readonly SettingsLayer[], notes: string[], fail: (message: string) => Error): Record<string, ModelPrice> {
  const prices: Record<string, ModelPrice> = {};
  for (const layer of layers) {
    const raw = layer.values.prices;
    if (raw === undefined || raw === null) continue;
    if (!layer.trusted) {
      notes.push(`(prices in ${layer.file} were ignored: only $SYLVAN_HOME/settings.json may set prices)`);
      continue;
    }
    if (typeof raw !== 'object' || Array.isArray(raw)) throw fail(`${layer.file}: prices: must map model names to { "input": …, "output": … }.`);
    for (const [model, price] of Object.entries(raw as Record<string, unknown>)) {
      const entry = price as Record<string, unknown> | null;
      const number = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
      const keysKnown = entry !== null && typeof entry === 'object' && Object.keys(entry).every((key) => ['input', 'output', 'cachedInput'].includes(key));
      if (!keysKnown || !number(entry.input) || !number(entry.output) || (entry.cachedInput !== undefined && !number(entry.cachedInput))) {
        throw fail(`${layer.file}: prices.${model}: must be { "input": N, "output": N } (and optionally "cachedInput"), per million tokens.`);
      }
      prices[model] = { input: entry.input as number, output: entry.output as number, ...(entry.cachedInput !== undefined && { cachedInput: entry.cachedInput as number }) };
    }
  }
  return prices;
}

const nonBlank = (raw: string | undefined): string | undefined => (raw !== undefined && raw.trim() !== '' ? raw : undefined);
