/**
 * What Sylvan knows about the models users pick: context window, whether the model thinks, and
 * list price. Matched by prefix, longest first, so `qwen-plus-latest` and `qwen-plus-2025-09-11`
 * both find `qwen-plus`. Prices are per million tokens (input, output, cached input), estimates for
 * /usage and the money budgets, not bills: `price` in USD from the providers' international price
 * lists (DashScope's international endpoint, OpenAI, DeepSeek), `cnyPrice` in CNY from Model Studio's
 * mainland-China list, the lowest input tier (short prompts). Both as listed on 2026-12-04 (docs/budgets.md lists them).
 */

/** The currency a provider bills in: CNY on DashScope's mainland endpoint, USD elsewhere. */
export type Currency = 'CNY' | 'USD';

/** Per million tokens, in one currency; `cachedInput` is a published price for a cache hit. */
export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
}

/**
 * `hybrid`: thinks when asked (`enable_thinking`, Qwen3 and its commercial siblings);
 * `always`: a thinking-only model (QwQ, `*-thinking*`, DeepSeek's reasoner); `never`: no thinking mode.
 */
export type ThinkingSupport = 'hybrid' | 'always' | 'never';

export interface ModelEntry {
  contextTokens: number;
  thinking: ThinkingSupport;
  /**
   * `cachedInput` is a provider's published price for a cache hit. DashScope's models are priced by
   * the rates of its context cache instead (`DASHSCOPE_CACHE_RATES`): `dashscopeCache` marks them.
   */
  price?: ModelPrice;
  /** The same model's price on DashScope's mainland-China endpoint, in CNY. */
  cnyPrice?: ModelPrice;
  dashscopeCache?: true;
  /** The model reads pictures in user messages (`@picture.png`). */
  images?: true;
}

/**
 * DashScope's context-cache billing, as shares of the input price (Alibaba Cloud Model Studio,
 * "Context cache"): a hit on the implicit cache costs 20%, a hit on an explicit cache block 10%,
 * and the tokens that create an explicit block 125%.
 */
export const DASHSCOPE_CACHE_RATES = { implicitHit: 0.2, explicitHit: 0.1, creation: 1.25 } as const;

/**
 * The models that take explicit `cache_control` markers: the stable Qwen commercial models of the
 * "Context cache" page (qwen3-max, qwen-plus, qwen-flash, qwen3-coder-plus/flash; explicit cache for
 * qwen3-coder-plus was announced on 2025-09-11) and the newer ones Qwen announced with it
 * (qwen3.5-plus, qwen3.6-plus, qwen3.7-max). Stable names only: the page leaves snapshots and
 * `-latest` aliases out, and they still get the implicit cache. Matched exactly, never by prefix.
 */
const EXPLICIT_CACHE_MODELS: ReadonlySet<string> = new Set([
  'qwen3-max',
  'qwen-plus',
  'qwen-flash',
  'qwen3-coder-plus',
  'qwen3-coder-flash',
  'qwen3.5-plus',
  'qwen3.6-plus',
  'qwen3.7-max',
]);

const CATALOGUE: Record<string, ModelEntry> = {
  'qwen3-max': { contextTokens: 262_144, thinking: 'hybrid', price: { input: 1.2, output: 6 }, cnyPrice: { input: 2.5, output: 10 }, dashscopeCache: true },
  'qwen-max': { contextTokens: 32_768, thinking: 'never', price: { input: 1.6, output: 6.4 }, cnyPrice: { input: 2.4, output: 9.6 }, dashscopeCache: true },
  'qwen-plus': { contextTokens: 131_072, thinking: 'hybrid', price: { input: 0.4, output: 1.2 }, cnyPrice: { input: 0.8, output: 2 }, dashscopeCache: true },
  'qwen-flash': { contextTokens: 1_000_000, thinking: 'hybrid', price: { input: 0.05, output: 0.4 }, cnyPrice: { input: 0.15, output: 1.5 }, dashscopeCache: true },
  'qwen-turbo': { contextTokens: 1_000_000, thinking: 'hybrid', price: { input: 0.05, output: 0.2 }, cnyPrice: { input: 0.3, output: 0.6 }, dashscopeCache: true },
  'qwen-long': { contextTokens: 10_000_000, thinking: 'never', price: { input: 0.07, output: 0.28 }, cnyPrice: { input: 0.5, output: 2 } },
  'qwen3-coder-plus': { contextTokens: 1_000_000, thinking: 'never', price: { input: 1, output: 5 }, cnyPrice: { input: 4, output: 16 }, dashscopeCache: true },
  'qwen3-coder-flash': { contextTokens: 1_000_000, thinking: 'never', price: { input: 0.3, output: 1.5 }, cnyPrice: { input: 1, output: 4 }, dashscopeCache: true },
  'qwq-plus': { contextTokens: 131_072, thinking: 'always', price: { input: 0.8, output: 2.4 }, cnyPrice: { input: 1.6, output: 4 } },
  'qwq-32b': { contextTokens: 131_072, thinking: 'always' },
  'qwen3-235b-a22b': { contextTokens: 131_072, thinking: 'hybrid', price: { input: 0.7, output: 2.8 }, cnyPrice: { input: 2, output: 8 } },
  'qwen3-235b-a22b-thinking-2507': { contextTokens: 131_072, thinking: 'always', price: { input: 0.7, output: 8.4 }, cnyPrice: { input: 2, output: 20 } },
  'qwen3-235b-a22b-instruct-2507': { contextTokens: 131_072, thinking: 'never', price: { input: 0.7, output: 2.8 }, cnyPrice: { input: 2, output: 8 } },
  'qwen3-30b-a3b-thinking-2507': { contextTokens: 131_072, thinking: 'always', price: { input: 0.2, output: 2.4 }, cnyPrice: { input: 0.75, output: 7.5 } },
  'qwen3-30b-a3b-instruct-2507': { contextTokens: 131_072, thinking: 'never', price: { input: 0.2, output: 0.8 }, cnyPrice: { input: 0.75, output: 3 } },
  'qwen3-next-80b-a3b-thinking': { contextTokens: 131_072, thinking: 'always', price: { input: 0.15, output: 1.2 }, cnyPrice: { input: 1, output: 10 } },
  'qwen3-next-80b-a3b-instruct': { contextTokens: 131_072, thinking: 'never', price: { input: 0.15, output: 1.2 }, cnyPrice: { input: 1, output: 4 } },
  'qwen3-32b': { contextTokens: 131_072, thinking: 'hybrid', price: { input: 0.7, output: 2.8 }, cnyPrice: { input: 2, output: 8 } },
  // Vision models of DashScope (Model Studio's visual-understanding models), their context windows from its model pages.
  'qwen-vl-max': { contextTokens: 131_072, thinking: 'never', images: true },
  'qwen-vl-plus': { contextTokens: 131_072, thinking: 'never', images: true },
  'qwen3-vl-plus': { contextTokens: 262_144, thinking: 'hybrid', images: true },
  'qwen3-vl-flash': { contextTokens: 262_144, thinking: 'hybrid', images: true },
  // The open Qwen3-VL and Qwen2.5-VL models (qwen3-vl-235b-a22b-instruct, qwen2.5-vl-72b-instruct…).
  'qwen3-vl': { contextTokens: 131_072, thinking: 'never', images: true },
  'qwen2.5-vl': { contextTokens: 131_072, thinking: 'never', images: true },
  qvq: { contextTokens: 131_072, thinking: 'always', images: true },
  'gpt-4o-mini': { contextTokens: 128_000, thinking: 'never', price: { input: 0.15, output: 0.6, cachedInput: 0.075 }, images: true },
  'gpt-4o': { contextTokens: 128_000, thinking: 'never', price: { input: 2.5, output: 10, cachedInput: 1.25 }, images: true },
  'gpt-4.1': { contextTokens: 1_047_576, thinking: 'never', price: { input: 2, output: 8, cachedInput: 0.5 }, images: true },
  'gpt-4.1-mini': { contextTokens: 1_047_576, thinking: 'never', price: { input: 0.4, output: 1.6, cachedInput: 0.1 }, images: true },
  'gpt-4.1-nano': { contextTokens: 1_047_576, thinking: 'never', price: { input: 0.1, output: 0.4, cachedInput: 0.025 }, images: true },
  'deepseek-chat': { contextTokens: 65_536, thinking: 'never', price: { input: 0.27, output: 1.1, cachedInput: 0.07 } },
  'deepseek-reasoner': { contextTokens: 65_536, thinking: 'always', price: { input: 0.55, output: 2.19, cachedInput: 0.14 } },
  mock: { contextTokens: 32_768, thinking: 'never' },
};

const DEFAULT_CONTEXT_TOKENS = 32_768;
const prefixes = Object.keys(CATALOGUE).sort((a, b) => b.length - a.length);

function find(model: string): ModelEntry | undefined {
  const key = prefixes.find((prefix) => model.startsWith(prefix));
  return key ? CATALOGUE[key] : undefined;
}

/** The model's context window in tokens; a conservative default for unknown models. */
export function contextWindowFor(model: string): number {
  return find(model)?.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
}

/** Whether the model thinks; for a model not in the table, guessed from its name. */
export function thinkingSupportOf(model: string): ThinkingSupport {
  const name = model.toLowerCase();
  if (/thinking|^qwq|reasoner/.test(name)) return 'always';
  const known = find(name)?.thinking;
  if (known) return known;
  if (/instruct|coder/.test(name)) return 'never';
  return /^qwen3/.test(name) ? 'hybrid' : 'never';
}

/**
 * Whether the model reads pictures: marked in the table (Qwen-VL, Qwen3-VL, QVQ, gpt-4o*, gpt-4.1*),
 * or for a model not in it, named like one (`…-vl-…`, `vision`, `llava`), as servers name them.
 */
export function acceptsImages(model: string): boolean {
  const name = model.toLowerCase();
  const entry = find(name);
  if (entry) return entry.images === true;
  return /(^|[-_./:])vl([-_.:]|$)|vision|llava/.test(name);
}

/** A model that reads pictures, to name when the current one cannot: per provider, one that also calls tools. */
export function visionModelFor(provider: string): string {
  return provider === 'openai' ? 'gpt-4.1' : 'qwen3-vl-plus';
}

/** Whether DashScope takes explicit cache markers for this model (see `EXPLICIT_CACHE_MODELS`). */
export function supportsExplicitCache(model: string): boolean {
  return EXPLICIT_CACHE_MODELS.has(model);
}

/** Whether the model's cache is billed at DashScope's rates (`DASHSCOPE_CACHE_RATES`). */
export function pricedByDashScopeCache(model: string): boolean {
  return find(model)?.dashscopeCache === true;
}

/** The token counts a price needs; the cache fields are parts of `inputTokens`. */
export interface PricedUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input served from a cache (implicit and explicit hits together). */
  cachedInputTokens: number;
  /** The part of `cachedInputTokens` that hit an explicit cache block. */
  explicitCachedInputTokens?: number;
  /** Input that created an explicit cache block. */
  cacheCreationInputTokens?: number;
}

export interface CostEstimate {
  currency: Currency;
  /** Everything, in `currency`. */
  total: number;
  /** The input as billed (hits and creation at their rates). */
  input: number;
  /** What the same input would cost with no cache at all. */
  inputWithoutCache: number;
}

/**
 * How requests are priced: the provider's currency, and the user's own prices (settings `prices`,
 * per million tokens in that currency, matched by prefix like the catalogue) ahead of the catalogue's.
 */
export interface Pricing {
  currency: Currency;
  overrides?: Readonly<Record<string, ModelPrice>>;
}

const USD_PRICING: Pricing = { currency: 'USD' };

/** The model's price in the pricing's currency: the user's override, else the catalogue's; undefined when neither knows it. */
function priceOf(model: string, pricing: Pricing = USD_PRICING): ModelPrice | undefined {
  const overrides = pricing.overrides ?? {};
  const own = Object.keys(overrides)
    .sort((a, b) => b.length - a.length)
    .find((prefix) => model.startsWith(prefix));
  if (own !== undefined) return overrides[own];
  const entry = find(model);
  return pricing.currency === 'CNY' ? entry?.cnyPrice : entry?.price;
}

/** The currency DashScope bills at this base URL: USD on its international and US endpoints, CNY on the mainland one (and any other). */
export function currencyOf(provider: string, baseURL: string | undefined): Currency {
  if (provider !== 'dashscope') return 'USD';
  let host = '';
  try {
    host = new URL(baseURL ?? '').hostname;
  } catch {
    // No URL: the default, mainland endpoint.
  }
  return /^dashscope-(intl|us)\./.test(host) ? 'USD' : 'CNY';
}

/** Estimated cost with its input part, or undefined when no price is known for the model. */
export function estimateCosts(model: string, usage: PricedUsage, pricing: Pricing = USD_PRICING): CostEstimate | undefined {
  const price = priceOf(model, pricing);
  if (!price) return undefined;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const explicit = Math.min(usage.explicitCachedInputTokens ?? 0, cached);
  const creation = Math.min(usage.cacheCreationInputTokens ?? 0, usage.inputTokens - cached);
  const fresh = usage.inputTokens - cached - creation;
  let input: number;
  if (find(model)?.dashscopeCache && price.cachedInput === undefined) {
    const rates = DASHSCOPE_CACHE_RATES;
    input = price.input * (fresh + creation * rates.creation + explicit * rates.explicitHit + (cached - explicit) * rates.implicitHit);
  } else {
    input = fresh * price.input + creation * price.input + cached * (price.cachedInput ?? price.input);
  }
  const output = usage.outputTokens * price.output;
  return {
    currency: pricing.currency,
    total: (input + output) / 1_000_000,
    input: input / 1_000_000,
    inputWithoutCache: (usage.inputTokens * price.input) / 1_000_000,
  };
}

/** Estimated cost, or undefined when no price is known for the model. */
export function estimateCost(model: string, usage: PricedUsage, pricing?: Pricing): number | undefined {
  return estimateCosts(model, usage, pricing)?.total;
}

/** An amount as the user reads it: `¥0.0123`, `$1.2500`. */
export function formatMoney(amount: number, currency: Currency): string {
  return `${currency === 'CNY' ? '¥' : '$'}${amount.toFixed(amount >= 100 ? 2 : 4)}`;
}
