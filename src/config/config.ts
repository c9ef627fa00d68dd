import type { ThinkingSetting } from '../models/thinking.ts';
import type { SandboxSettings } from '../sandbox/sandbox-settings.ts';
import type { ApprovalMode } from '../tools/approval-mode.ts';
import type { SearchConfig } from '../tools/web/web-config.ts';
import type { ModelPrice } from '../models/model-catalogue.ts';
import type { BreakerSettings, BudgetLimits } from './settings/budget-settings.ts';
import type { LoadedSettings } from './settings/load-settings.ts';
import type { StatusLineSetting } from './settings/status-line-setting.ts';

export type ProviderName = 'dashscope' | 'openai' | 'mock';

/**
 * Seconds a REPL turn runs before its end is worth a Notification (`idle_prompt`): the notifiers
 * people already run for Claude Code stay quiet for turns under 30 s, when the user is still watching.
 */
export const DEFAULT_NOTIFY_AFTER_SECONDS = 30;

/** What the process is: a terminal chat, one printed answer, or an editor's agent over ACP. */
export type RunMode = { kind: 'repl' } | { kind: 'print'; prompt?: string } | { kind: 'acp' };

export type ResumeRequest = { kind: 'latest' } | { kind: 'pick' } | { kind: 'id'; id: string };

/** Everything Sylvan needs to know at start, validated. */
export interface Config {
  provider: ProviderName;
  model: string;
  apiKey?: string;
  baseURL?: string;
  /** The variable that holds the key, named in error advice. */
  keyVariable?: string;
  baseUrlVariable?: string;
  maxSteps: number;
  tokenBudget: number;
  timeoutSeconds: number;
  toolTimeoutSeconds: number;
  maxRetries: number;
  /** Approve every tool call without asking (print mode needs it for write_file). */
  yes: boolean;
  /** Which calls ask at the start (`--mode`, SYLVAN_MODE, settings `mode`); the REPL can change it (Shift+Tab, /mode). */
  approvalMode: ApprovalMode;
  weather: 'live' | 'sample';
  /** web_search backend and web_fetch settings (SYLVAN_SEARCH, TAVILY_API_KEY, BRAVE_API_KEY, SEARXNG_URL…). */
  search?: SearchConfig;
  mockDelayMs: number;
  /** $SYLVAN_HOME: sessions and input history. */
  home: string;
  /** The user's home folder ($HOME): where `~/.claude/skills` is looked for. */
  userHome?: string;
  contextTokens: number;
  debug: boolean;
  secretPatterns: string[];
  /** `print` runs one turn; its prompt comes from the arguments or, when absent, stdin. `acp` serves an editor. */
  mode: RunMode;
  json: boolean;
  resume?: ResumeRequest;
  cwd: string;
  /** Settings from the folder that were ignored (a redirected key, approvals switched off): shown dimmed. */
  notes?: string[];
  /** Every key Sylvan knows of (the key in use, *_API_KEY and *_TOKEN values): scrubbed from error text and sessions. */
  secrets?: string[];
  /** The settings files read (src/config/settings/); `permissions` and `mcpServers` are checked after the prompt. */
  settings?: LoadedSettings;
  /** Seconds a configured MCP server may take to start; print mode waits at most this long for them. */
  mcpStartTimeoutSeconds?: number;
  /** A REPL turn that ran at least this long tells the Notification hooks (`idle_prompt`) when it ends; default 30. */
  notifyAfterSeconds?: number;
  /** --think / --no-think / --thinking-budget, SYLVAN_THINKING (see providers/thinking.ts). */
  thinking?: ThinkingSetting;
  /** --sandbox, SYLVAN_SANDBOX, settings `sandbox` (src/sandbox/sandbox-settings.ts); absent means auto, no network. */
  sandbox?: SandboxSettings;
  /** SYLVAN_CACHE, default `explicit` (see providers/cache-markers.ts). */
  cache?: CacheMode;
  /** Budgets in money, requests and time (settings/budget-settings.ts); absent ones do not apply. */
  budgets?: BudgetLimits;
  /** The circuit breaker's thresholds (settings `circuitBreaker`); the loop's defaults without. */
  breaker?: BreakerSettings;
  /** Settings `statusLine`: the command whose first line is the row under the prompt (user file only). */
  statusLine?: StatusLineSetting;
  /** The user's own prices per million tokens, by model name or prefix (settings `prices`). */
  prices?: Record<string, ModelPrice>;
}

/**
 * `explicit`: DashScope cache markers for the models that take them, and history evicted in large
 * chunks so the prefix stays the same; `implicit`: no markers (DashScope's own implicit cache), the
 * same chunked eviction; `off`: no markers, and the oldest turns are left out one at a time.
 */
export type CacheMode = 'explicit' | 'implicit' | 'off';
