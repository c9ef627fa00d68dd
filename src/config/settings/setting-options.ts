/**
 * Every option a settings file may hold a default for, as the environment variable it stands in
 * for: a settings file is one more layer of the name → value map `loadConfig` reads, below the
 * environment and `.env`. A new option is one line here.
 */
export type OptionType =
  | 'string'
  | 'boolean'
  | 'positive-integer'
  | 'non-negative-integer'
  | 'positive-number'
  | readonly string[];

export interface SettingOption {
  variable: string;
  type: OptionType;
  /**
   * What a project (workspace) file may not set: a key, a base URL redirecting a key, approval; a
   * `mode` it may set only when it asks no less than the user's own (`approval-mode-setting.ts`).
   */
  guard?: 'key' | 'approval' | 'mode' | { baseUrlOf: string };
}

export const SETTING_OPTIONS: Record<string, SettingOption> = {
  provider: { variable: 'SYLVAN_PROVIDER', type: ['dashscope', 'openai', 'mock'] },
  model: { variable: 'SYLVAN_MODEL', type: 'string' },
  maxSteps: { variable: 'SYLVAN_MAX_STEPS', type: 'positive-integer' },
  tokenBudget: { variable: 'SYLVAN_TOKEN_BUDGET', type: 'positive-integer' },
  timeout: { variable: 'SYLVAN_TIMEOUT', type: 'positive-number' },
  toolTimeout: { variable: 'SYLVAN_TOOL_TIMEOUT', type: 'positive-number' },
  maxRetries: { variable: 'SYLVAN_MAX_RETRIES', type: 'non-negative-integer' },
  weather: { variable: 'SYLVAN_WEATHER', type: ['live', 'sample'] },
  cache: { variable: 'SYLVAN_CACHE', type: ['explicit', 'implicit', 'off'] },
  contextTokens: { variable: 'SYLVAN_CONTEXT_TOKENS', type: 'positive-integer' },
  mockDelayMs: { variable: 'SYLVAN_MOCK_DELAY_MS', type: 'non-negative-integer' },
  mcpStartTimeout: { variable: 'SYLVAN_MCP_START_TIMEOUT', type: 'positive-number' },
  notifyAfter: { variable: 'SYLVAN_NOTIFY_AFTER', type: 'non-negative-integer' },
  yes: { variable: 'SYLVAN_YES', type: 'boolean', guard: 'approval' },
  mode: { variable: 'SYLVAN_MODE', type: ['ask', 'auto-edit', 'plan'], guard: 'mode' },
  dashscopeApiKey: { variable: 'DASHSCOPE_API_KEY', type: 'string', guard: 'key' },
  dashscopeBaseUrl: { variable: 'DASHSCOPE_BASE_URL', type: 'string', guard: { baseUrlOf: 'DASHSCOPE_API_KEY' } },
  openaiApiKey: { variable: 'OPENAI_API_KEY', type: 'string', guard: 'key' },
  openaiBaseUrl: { variable: 'OPENAI_BASE_URL', type: 'string', guard: { baseUrlOf: 'OPENAI_API_KEY' } },
};

/** The keys a settings file may hold besides the options. */
export const STRUCTURED_KEYS = [
  '$schema',
  'permissions',
  'mcpServers',
  'sandbox',
  // Read by hooks/: a folder's hooks run only after /hooks trust.
  'hooks',
  // Read by skill-settings: which skills not to offer.
  'skills',
  // Read by budget-settings.ts: a folder's file may only lower a budget or a threshold, and may not set prices.
  'turnCostBudget',
  'sessionCostBudget',
  'sessionRequestBudget',
  'turnTimeBudget',
  'sessionTimeBudget',
  'circuitBreaker',
  'prices',
  // Read by the REPL (ui/status-line/): the user's own file only.
  'statusLine',
] as const;

/** Checks one option's value by hand (zod waits until after the prompt); returns what is wrong, or the value as text. */
export function checkOption(type: OptionType, value: unknown): { text: string } | { problem: string } {
  if (Array.isArray(type)) {
    return typeof value === 'string' && type.includes(value) ? { text: value } : { problem: `must be one of ${type.join(', ')}` };
  }
  switch (type) {
    case 'string':
      return typeof value === 'string' && value.trim() !== '' ? { text: value } : { problem: 'must be a non-empty string' };
    case 'boolean':
      return typeof value === 'boolean' ? { text: value ? '1' : '0' } : { problem: 'must be true or false' };
    case 'positive-integer':
      return Number.isInteger(value) && (value as number) > 0 ? { text: String(value) } : { problem: 'must be a positive whole number' };
    case 'non-negative-integer':
      return Number.isInteger(value) && (value as number) >= 0 ? { text: String(value) } : { problem: 'must be 0 or a positive whole number' };
    case 'positive-number':
      return typeof value === 'number' && Number.isFinite(value) && value > 0 ? { text: String(value) } : { problem: 'must be a positive number' };
  }
  return { problem: 'has an unknown type' };
}
