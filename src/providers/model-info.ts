/**
 * What Sylvan knows about well-known models: context window and list price. Matched by prefix,
 * longest first, so `qwen-plus-latest` and `qwen-plus-2025-09-11` both find `qwen-plus`.
 * Prices are USD per million tokens (input, output), from the providers' public price lists;
 * they are estimates for /usage, not bills.
 */
interface ModelInfo {
  contextTokens: number;
  price?: { input: number; output: number; cachedInput?: number };
}

const MODELS: Record<string, ModelInfo> = {
  'qwen-plus': { contextTokens: 131_072, price: { input: 0.4, output: 1.2, cachedInput: 0.16 } },
  'qwen-max': { contextTokens: 32_768, price: { input: 1.6, output: 6.4 } },
  'qwen3-max': { contextTokens: 262_144, price: { input: 1.2, output: 6 } },
  'qwen-turbo': { contextTokens: 1_000_000, price: { input: 0.05, output: 0.2 } },
  'qwen-flash': { contextTokens: 1_000_000, price: { input: 0.05, output: 0.4 } },
  'qwen3-coder-plus': { contextTokens: 1_000_000, price: { input: 1, output: 5 } },
  'qwen-long': { contextTokens: 10_000_000, price: { input: 0.07, output: 0.28 } },
  'gpt-4o-mini': { contextTokens: 128_000, price: { input: 0.15, output: 0.6, cachedInput: 0.075 } },
  'gpt-4o': { contextTokens: 128_000, price: { input: 2.5, output: 10, cachedInput: 1.25 } },
  'gpt-4.1': { contextTokens: 1_047_576, price: { input: 2, output: 8, cachedInput: 0.5 } },
  'gpt-4.1-mini': { contextTokens: 1_047_576, price: { input: 0.4, output: 1.6, cachedInput: 0.1 } },
  'gpt-4.1-nano': { contextTokens: 1_047_576, price: { input: 0.1, output: 0.4, cachedInput: 0.025 } },
  'deepseek-chat': { contextTokens: 65_536, price: { input: 0.27, output: 1.1, cachedInput: 0.07 } },
  mock: { contextTokens: 32_768 },
};

const DEFAULT_CONTEXT_TOKENS = 32_768;
const prefixes = Object.keys(MODELS).sort((a, b) => b.length - a.length);

function find(model: string): ModelInfo | undefined {
  const key = prefixes.find((prefix) => model === prefix || model.startsWith(`${prefix}-`) || model.startsWith(prefix));
  return key ? MODELS[key] : undefined;
}

/** The model's context window in tokens; a conservative default for unknown models. */
export function contextWindowFor(model: string): number {
  return find(model)?.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
}

/** Estimated cost in USD, or undefined when the price table does not know the model. */
export function estimateCost(
  model: string,
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number },
): number | undefined {
  const price = find(model)?.price;
  if (!price) return undefined;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  return (fresh * price.input + cached * (price.cachedInput ?? price.input) + usage.outputTokens * price.output) / 1_000_000;
}
