import { ConfigError } from './errors.ts';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { contextWindowFor } from './providers/model-catalogue.ts';
import { parseThinkingOptions, type ThinkingSetting } from './providers/thinking.ts';
import { parseNumberSetting, type NumberSettingName } from './settings/number-settings.ts';
import { SettingsSources } from './settings/sources.ts';
import { readWholeSmallFile } from './files/bounded-file.ts';
import { loadSettings, type LoadedSettings } from './settings/load-settings.ts';
import { parseSearchConfig, type SearchConfig } from './tools/web/web-config.ts';
import { isCredentialName, urlPassword } from './sandbox/credential-variables.ts';
import { resolveSandboxSettings, type SandboxSettings } from './sandbox/sandbox-settings.ts';
import { resolveApprovalMode } from './settings/approval-mode-setting.ts';
import { resolveBreaker, resolveBudgets, resolvePrices, type BreakerSettings, type BudgetLimits } from './settings/budget-settings.ts';
import { DEFAULT_BREAKER_THRESHOLDS } from './agent/circuit-breaker.ts';
import type { ModelPrice } from './providers/model-catalogue.ts';
import type { ApprovalMode } from './tools/approval-mode.ts';

export type ProviderName = 'dashscope' | 'openai' | 'mock';

export const DASHSCOPE_BASE_URL = 'https://dashscope.aliyuncs.com/compatible-mode/v1';
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_MODELS: Record<ProviderName, string> = {
  dashscope: 'qwen-plus-latest',
  openai: 'gpt-4o-mini',
  mock: 'mock',
};
/** The variable other tools use for a provider's model, read after SYLVAN_MODEL. */
const PROVIDER_MODEL_VARIABLES: Partial<Record<ProviderName, string>> = {
  dashscope: 'DASHSCOPE_MODEL',
  openai: 'OPENAI_MODEL',
};

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
  contextTokens: number;
  debug: boolean;
  secretPatterns: string[];
  /** `print` runs one turn; its prompt comes from the arguments or, when absent, stdin. */
  mode: { kind: 'repl' } | { kind: 'print'; prompt?: string };
  json: boolean;
  resume?: ResumeRequest;
  cwd: string;
  /** Settings from the folder that were ignored (a redirected key, approvals switched off): shown dimmed. */
  notes?: string[];
  /** Every key Sylvan knows of (the key in use, *_API_KEY and *_TOKEN values): scrubbed from error text and sessions. */
  secrets?: string[];
  /** The settings files read (src/settings/); `permissions` and `mcpServers` are checked after the prompt. */
  settings?: LoadedSettings;
  /** Seconds a configured MCP server may take to start; print mode waits at most this long for them. */
  mcpStartTimeoutSeconds?: number;
  /** --think / --no-think / --thinking-budget, SYLVAN_THINKING (see providers/thinking.ts). */
  thinking?: ThinkingSetting;
  /** --sandbox, SYLVAN_SANDBOX, settings `sandbox` (src/sandbox/sandbox-settings.ts); absent means auto, no network. */
  sandbox?: SandboxSettings;
  /** SYLVAN_CACHE, default `explicit` (see providers/cache-markers.ts). */
  cache?: CacheMode;
  /** Budgets in money, requests and time (settings/budget-settings.ts); absent ones do not apply. */
  budgets?: BudgetLimits;
  /** The circuit breaker's thresholds (settings `circuitBreaker`). */
  breaker?: BreakerSettings;
  /** The user's own prices per million tokens, by model name or prefix (settings `prices`). */
  prices?: Record<string, ModelPrice>;
}

/**
 * `explicit`: DashScope cache markers for the models that take them, and history evicted in large
 * chunks so the prefix stays the same; `implicit`: no markers (DashScope's own implicit cache), the
 * same chunked eviction; `off`: no markers, and the oldest turns are left out one at a time.
 */
export type CacheMode = 'explicit' | 'implicit' | 'off';

export { ConfigError };

export const HELP = `Usage: sylvan [options]            chat in the terminal
       sylvan -p "question"         answer one question and exit (or pipe it on stdin)

Options:
  -p, --print             one turn, answer on stdout, tool activity on stderr
      --json              with -p: every event as one JSON line on stdout
      --provider NAME     dashscope | openai | mock            (SYLVAN_PROVIDER)
  -m, --model NAME        model id, e.g. qwen-plus-latest       (SYLVAN_MODEL)
      --max-steps N       model requests per turn, default 10   (SYLVAN_MAX_STEPS)
      --token-budget N    tokens per turn, default 500000       (SYLVAN_TOKEN_BUDGET)
      --turn-cost-budget AMOUNT     money per turn, in the provider's currency (SYLVAN_TURN_COST_BUDGET)
      --session-cost-budget AMOUNT  money per session                (SYLVAN_SESSION_COST_BUDGET)
      --session-request-budget N    model requests per session       (SYLVAN_SESSION_REQUEST_BUDGET)
      --turn-time-budget SECONDS    wall-clock time per turn         (SYLVAN_TURN_TIME_BUDGET)
      --session-time-budget SECONDS time spent in turns per session  (SYLVAN_SESSION_TIME_BUDGET)
      --timeout SECONDS   limit for each model step, default 120 (SYLVAN_TIMEOUT)
  -y, --yes               approve file writes without asking    (SYLVAN_YES=1)
      --sandbox MODE      commands in a sandbox: auto | on | off (SYLVAN_SANDBOX)
      --mode NAME         ask | auto-edit | plan, default ask   (SYLVAN_MODE)
      --think, --no-think thinking on or off for hybrid Qwen3 models (SYLVAN_THINKING=on|off|auto)
      --thinking-budget N most tokens to think before answering (SYLVAN_THINKING_BUDGET)
  -c, --continue          resume the latest session of this folder
  -r, --resume [ID]       pick a recent session, or open one by id
  -h, --help              this help
  -v, --version           the version

Keys (environment or .env in this folder): DASHSCOPE_API_KEY, OPENAI_API_KEY (+ OPENAI_BASE_URL).
Models: DASHSCOPE_MODEL or OPENAI_MODEL (after --model and SYLVAN_MODEL).
A local server needs no key: OPENAI_BASE_URL=http://localhost:11434/v1 (Ollama).
With no key Sylvan runs a built-in offline mock model.`;

type Environment = Record<string, string | undefined>;

/** dotenv costs more to load than the rest of start-up's modules together: loaded only when a .env exists. */
const parseDotenv = (source: Buffer): Environment =>
  (createRequire(import.meta.url)('dotenv') as typeof import('dotenv')).parse(source);

/** A `.env` of more than this is not read: it is a list of variables, not data. */
const MAX_DOTENV_BYTES = 1_000_000;

/** `.env` in the workspace, read only if it is a regular file there (not a FIFO, a device or a link out). */
function readDotenv(cwd: string, notes: string[]): Environment {
  const read = readWholeSmallFile(join(cwd, '.env'), { maxBytes: MAX_DOTENV_BYTES, within: cwd, withinLabel: 'the workspace' });
  if (read.status === 'refused') notes.push(`(.env in ${cwd} was not read: ${read.reason})`);
  return read.status === 'read' ? parseDotenv(read.bytes) : {};
}

const configError = (message: string) => new ConfigError(message);

/** A number from its flag or, failing that, its variable; the error names the one the user set. */
function numberSetting(name: NumberSettingName, env: Environment, fallback: number, flag?: { value: string | undefined; name: string }): number {
  return flag?.value !== undefined
    ? parseNumberSetting(name, flag.value, fallback, flag.name, configError)
    : parseNumberSetting(name, env[name], fallback, name, configError);
}

function httpUrl(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL: "${raw}". Example: ${DASHSCOPE_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must start with http:// or https://, got "${raw}".`);
  }
  return raw.replace(/\/+$/, '');
}

/**
 * Keys from every variable that names a credential (`*_KEY`, `*_TOKEN`, `*PASSWORD*`…) and the
 * passwords of URLs (`DATABASE_URL=postgres://u:pw@…`); the keyless placeholder is no secret.
 */
function knownSecrets(env: Environment, apiKey: string | undefined): string[] {
  const values = Object.entries(env).flatMap(([name, value]) =>
    value === undefined ? [] : [isCredentialName(name) ? value : undefined, urlPassword(value)],
  );
  return [...new Set([apiKey, ...values])].filter((value): value is string => value !== undefined && value !== 'no-key' && value.trim() !== '');
}

const truthy = (raw: string | undefined): boolean => raw !== undefined && /^(1|true|yes|on)$/i.test(raw.trim());
const nonEmpty = (raw: string | undefined): string | undefined => (raw && raw.trim() !== '' ? raw.trim() : undefined);

/**
 * The model: `--model`, then `SYLVAN_MODEL`, then the provider's own variable (`OPENAI_MODEL`,
 * `DASHSCOPE_MODEL`: what other tools read), each from the environment or else `.env`; then the
 * settings files' `model`; then the provider's default.
 */
function chooseModel(provider: ProviderName, flag: string | undefined, variables: SettingsSources, settings: Environment): string {
  const providerVariable = PROVIDER_MODEL_VARIABLES[provider];
  return (
    nonEmpty(flag) ??
    variables.lookup('SYLVAN_MODEL')?.value ??
    (providerVariable === undefined ? undefined : variables.lookup(providerVariable)?.value) ??
    nonEmpty(settings.SYLVAN_MODEL) ??
    DEFAULT_MODELS[provider]
  );
}

/** `--resume` takes an optional id, which parseArgs cannot express: give it an empty one. */
function normaliseResume(argv: string[]): string[] {
  return argv.flatMap((argument, index) => {
    if (argument !== '--resume' && argument !== '-r') return [argument];
    const next = argv[index + 1];
    return next === undefined || next.startsWith('-') ? [argument, ''] : [argument];
  });
}

/**
 * Flags > environment > `.env` in the working directory. Throws `ConfigError` (one line,
 * exit code 2) for anything invalid; `help`/`version` are answered by the caller.
 */
export function loadConfig(
  argv: string[],
  environment: Environment,
  cwd: string,
): Config | { help: true } | { version: true } {
  let parsed;
  try {
    parsed = parseArgs({
      args: normaliseResume(argv),
      allowPositionals: true,
      strict: true,
      options: {
        print: { type: 'boolean', short: 'p' },
        json: { type: 'boolean' },
        provider: { type: 'string' },
        model: { type: 'string', short: 'm' },
        'max-steps': { type: 'string' },
        'token-budget': { type: 'string' },
        'turn-cost-budget': { type: 'string' },
        'session-cost-budget': { type: 'string' },
        'session-request-budget': { type: 'string' },
        'turn-time-budget': { type: 'string' },
        'session-time-budget': { type: 'string' },
        timeout: { type: 'string' },
        yes: { type: 'boolean', short: 'y' },
        sandbox: { type: 'string' },
        mode: { type: 'string' },
        think: { type: 'boolean' },
        'no-think': { type: 'boolean' },
        'thinking-budget': { type: 'string' },
        continue: { type: 'boolean', short: 'c' },
        resume: { type: 'string', short: 'r' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    // Node's text goes on about positionals after "--"; its first sentence is the useful part.
    const first = (error as Error).message.split('\n')[0]?.split(/(?<=\.) /)[0] ?? 'Invalid arguments.';
    throw new ConfigError(`${first} Run sylvan --help for the options.`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (values.version) return { version: true };

  // Settings files are the layer below .env. Only the real environment says where the user's file
  // is: a workspace .env pointing SYLVAN_HOME at the workspace would make its file "trusted".
  const settings = loadSettings(nonEmpty(environment.SYLVAN_HOME) ?? join(homedir(), '.sylvan'), cwd, environment);
  // An empty variable in the shell counts as unset, so it does not hide the value in .env.
  const fileNotes = [...settings.notes];
  const dotenv = readDotenv(cwd, fileNotes);
  const variables = [
    { label: 'the environment', trusted: true, values: environment },
    { label: `.env in ${cwd}`, trusted: false, values: dotenv },
  ];
  const sources = new SettingsSources([
    ...variables,
    // What a project file may not set (keys, a base URL for a key it did not bring, approval) was
    // refused by loadSettings with exit 2; what is left may stand as the user's own choices.
    { label: 'the settings files', trusted: true, values: settings.environment },
  ]);
  const env = sources.merged();

  const providerRaw = nonEmpty(values.provider) ?? nonEmpty(env.SYLVAN_PROVIDER);
  const dashscopeKey = nonEmpty(env.DASHSCOPE_API_KEY);
  const openaiKey = nonEmpty(env.OPENAI_API_KEY);
  const openaiBase = nonEmpty(env.OPENAI_BASE_URL);
  let provider: ProviderName;
  if (providerRaw !== undefined) {
    if (providerRaw !== 'dashscope' && providerRaw !== 'openai' && providerRaw !== 'mock') {
      throw new ConfigError(`Unknown provider "${providerRaw}": use dashscope, openai or mock.`);
    }
    provider = providerRaw;
  } else {
    provider = dashscopeKey ? 'dashscope' : openaiKey || openaiBase ? 'openai' : 'mock';
  }

  const model = chooseModel(provider, values.model, new SettingsSources(variables), settings.environment);
  let apiKey: string | undefined;
  let baseURL: string | undefined;
  let keyVariable: string | undefined;
  let baseUrlVariable: string | undefined;
  if (provider === 'dashscope') {
    if (!dashscopeKey) throw new ConfigError('The dashscope provider needs DASHSCOPE_API_KEY: set it in the environment or in .env.');
    apiKey = dashscopeKey;
    keyVariable = 'DASHSCOPE_API_KEY';
    baseUrlVariable = 'DASHSCOPE_BASE_URL';
    baseURL = httpUrl(sources.baseUrlFor('DASHSCOPE_API_KEY', 'DASHSCOPE_BASE_URL') ?? DASHSCOPE_BASE_URL, 'DASHSCOPE_BASE_URL');
  } else if (provider === 'openai') {
    if (!openaiKey && !openaiBase) {
      throw new ConfigError('The openai provider needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server such as Ollama).');
    }
    // Local servers (Ollama, llama.cpp) take no key, but the client insists on one.
    apiKey = openaiKey ?? 'no-key';
    keyVariable = 'OPENAI_API_KEY';
    baseUrlVariable = 'OPENAI_BASE_URL';
    baseURL = httpUrl(sources.baseUrlFor('OPENAI_API_KEY', 'OPENAI_BASE_URL') ?? OPENAI_BASE_URL, 'OPENAI_BASE_URL');
  }

  const print = values.print === true || values.json === true;
  const prompt = positionals.join(' ').trim();
  if (!print && prompt !== '') {
    throw new ConfigError(`Unexpected argument "${positionals[0]}". To ask one question, use: sylvan -p "${prompt}"`);
  }

  let resume: ResumeRequest | undefined;
  if (values.continue) resume = { kind: 'latest' };
  if (values.resume !== undefined) {
    if (resume) throw new ConfigError('Use either --continue or --resume, not both.');
    resume = values.resume === '' ? { kind: 'pick' } : { kind: 'id', id: values.resume };
  }
  if (print && resume?.kind === 'pick') throw new ConfigError('--resume needs a session id in print mode.');

  const approval = resolveApprovalMode(
    [
      { label: '--mode', trusted: true, value: values.mode },
      { label: 'SYLVAN_MODE', trusted: true, value: environment.SYLVAN_MODE },
      { label: `SYLVAN_MODE in .env in ${cwd}`, trusted: false, value: dotenv.SYLVAN_MODE },
      { label: settings.projectMode?.file ?? 'the project settings', trusted: false, value: settings.projectMode?.value },
      { label: 'mode in $SYLVAN_HOME/settings.json', trusted: true, value: settings.environment.SYLVAN_MODE },
    ],
    configError,
  );
  sources.notes.push(...approval.notes);
  const cacheRaw = nonEmpty(env.SYLVAN_CACHE);
  if (cacheRaw !== undefined && cacheRaw !== 'explicit' && cacheRaw !== 'implicit' && cacheRaw !== 'off') {
    throw new ConfigError(`SYLVAN_CACHE must be explicit, implicit or off, got "${cacheRaw}".`);
  }

  const weatherRaw = nonEmpty(env.SYLVAN_WEATHER);
  if (weatherRaw !== undefined && weatherRaw !== 'live' && weatherRaw !== 'sample') {
    throw new ConfigError(`SYLVAN_WEATHER must be live or sample, got "${weatherRaw}".`);
  }

  const prices = resolvePrices(settings.layers, fileNotes, configError);
  return {
    provider,
    model,
    apiKey,
    baseURL,
    keyVariable,
    baseUrlVariable,
    maxSteps: numberSetting('SYLVAN_MAX_STEPS', env, 10, { value: values['max-steps'], name: '--max-steps' }),
    tokenBudget: numberSetting('SYLVAN_TOKEN_BUDGET', env, 500_000, { value: values['token-budget'], name: '--token-budget' }),
    timeoutSeconds: numberSetting('SYLVAN_TIMEOUT', env, 120, { value: values.timeout, name: '--timeout' }),
    toolTimeoutSeconds: numberSetting('SYLVAN_TOOL_TIMEOUT', env, 60),
    maxRetries: numberSetting('SYLVAN_MAX_RETRIES', env, 3),
    yes: values.yes === true || sources.approvesEverything(truthy),
    approvalMode: approval.mode,
    weather: weatherRaw ?? (provider === 'mock' ? 'sample' : 'live'),
    mockDelayMs: numberSetting('SYLVAN_MOCK_DELAY_MS', env, 15),
    search: parseSearchConfig(env, provider, (message) => new ConfigError(message), environment),
    home: nonEmpty(env.SYLVAN_HOME) ?? join(homedir(), '.sylvan'),
    contextTokens: numberSetting('SYLVAN_CONTEXT_TOKENS', env, contextWindowFor(model)),
    debug: truthy(env.SYLVAN_DEBUG),
    secretPatterns: (env.SYLVAN_SECRET_PATTERNS ?? '')
      .split(',')
      .map((pattern) => pattern.trim())
      .filter(Boolean)
      .concat(settings.secretPatterns),
    mode: print ? { kind: 'print', prompt: prompt === '' ? undefined : prompt } : { kind: 'repl' },
    json: values.json === true,
    resume,
    cwd,
    notes: [...fileNotes, ...sources.notes],
    secrets: knownSecrets(env, apiKey),
    settings,
    mcpStartTimeoutSeconds: numberSetting('SYLVAN_MCP_START_TIMEOUT', env, 10),
    thinking: parseThinkingOptions(values, env),
    sandbox: resolveSandboxSettings({
      flag: values.sandbox,
      trustedVariable: environment.SYLVAN_SANDBOX,
      folderVariable: sources.lookup('SYLVAN_SANDBOX')?.layer.trusted === false ? sources.lookup('SYLVAN_SANDBOX')?.value : undefined,
      layers: settings.layers,
      fail: configError,
    }),
    cache: cacheRaw ?? 'explicit',
    budgets: resolveBudgets({ flags: values, environment, dotenv, layers: settings.layers, fail: configError }),
    breaker: resolveBreaker(DEFAULT_BREAKER_THRESHOLDS, settings.layers, configError),
    prices,
  };
}
