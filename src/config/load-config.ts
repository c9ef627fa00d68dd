import { homedir } from 'node:os';
import { ConfigError } from '../shared/config-error.ts';
import { contextWindowFor } from '../models/model-catalogue.ts';
import { parseThinkingOptions } from '../models/thinking.ts';
import { hiddenPathPatterns } from '../sandbox/hidden-paths.ts';
import { resolveSandboxSettings } from '../sandbox/sandbox-settings.ts';
import { parseSearchConfig } from '../tools/web/web-config.ts';
import { DEFAULT_NOTIFY_AFTER_SECONDS, type Config } from './config.ts';
import { knownSecrets, nonEmpty, limitSetting, numberSetting, readEnvironment, truthy, whereSet, type Environment } from './environment.ts';
import type { SettingsSources } from './settings/sources.ts';
import { parseCommandLine } from './flags.ts';
import { chooseModel, chooseProvider } from './provider-choice.ts';
import { resolveApprovalMode } from './settings/approval-mode-setting.ts';
import { resolveBreaker, resolveBudgets, resolvePrices } from './settings/budget-settings.ts';
import { resolveStatusLine } from './settings/status-line-setting.ts';

const configError = (message: string) => new ConfigError(message);

/**
 * Flags > environment > `.env` in the working directory > the settings files. Throws `ConfigError`
 * (one line, exit code 2) for anything invalid; `help`/`version` are answered by the caller.
 */
export function loadConfig(argv: string[], environment: Environment, cwd: string): Config | { help: true } | { version: true } {
  const commandLine = parseCommandLine(argv);
  if (!('flags' in commandLine)) return commandLine;
  const { flags } = commandLine;
  const layers = readEnvironment(environment, cwd);
  const { settings, sources, merged: env, home } = layers;
  const chosen = chooseProvider(flags.provider, env, sources);
  const model = chooseModel(chosen.provider, flags.model, layers.variables, settings.environment);

  const approval = resolveApprovalMode(
    [
      { label: '--mode', trusted: true, value: flags.mode },
      { label: 'SYLVAN_MODE', trusted: true, value: environment.SYLVAN_MODE },
      { label: `SYLVAN_MODE in .env in ${cwd}`, trusted: false, value: layers.dotenv.SYLVAN_MODE },
      { label: settings.projectMode?.file ?? 'the project settings', trusted: false, value: settings.projectMode?.value },
      { label: 'mode in $SYLVAN_HOME/settings.json', trusted: true, value: settings.environment.SYLVAN_MODE },
    ],
    configError,
  );
  sources.notes.push(...approval.notes);
  const cache = oneOf(sources, 'SYLVAN_CACHE', ['explicit', 'implicit', 'off'] as const, 'explicit, implicit or off');
  const weather = oneOf(sources, 'SYLVAN_WEATHER', ['live', 'sample'] as const, 'live or sample');

  const prices = resolvePrices(settings.layers, layers.fileNotes, configError);
  const statusLine = resolveStatusLine(settings.layers, layers.fileNotes, configError);
  return {
    ...chosen,
    model,
    maxSteps: limitSetting('SYLVAN_MAX_STEPS', 'maxSteps', layers, 10, { value: flags['max-steps'], name: '--max-steps' }),
    tokenBudget: limitSetting('SYLVAN_TOKEN_BUDGET', 'tokenBudget', layers, 500_000, { value: flags['token-budget'], name: '--token-budget' }),
    timeoutSeconds: numberSetting('SYLVAN_TIMEOUT', sources, 120, { value: flags.timeout, name: '--timeout' }),
    toolTimeoutSeconds: numberSetting('SYLVAN_TOOL_TIMEOUT', sources, 60),
    maxRetries: numberSetting('SYLVAN_MAX_RETRIES', sources, 3),
    yes: flags.yes === true || sources.approvesEverything(truthy),
    approvalMode: approval.mode,
    weather: weather ?? (chosen.provider === 'mock' ? 'sample' : 'live'),
    mockDelayMs: numberSetting('SYLVAN_MOCK_DELAY_MS', sources, 15),
    search: parseSearchConfig(env, chosen.provider, configError, environment),
    home,
    userHome: environment.HOME || homedir(),
    contextTokens: numberSetting('SYLVAN_CONTEXT_TOKENS', sources, contextWindowFor(model)),
    debug: truthy(env.SYLVAN_DEBUG),
    secretPatterns: (env.SYLVAN_SECRET_PATTERNS ?? '')
      .split(',')
      .map((pattern) => pattern.trim())
      .filter(Boolean)
      .concat(settings.secretPatterns)
      // Sylvan's own settings and the credential files commands cannot see are as closed to the file tools.
      .concat(hiddenPathPatterns(cwd, { home: environment.HOME || homedir(), sylvanHome: home, environment })),
    mode: commandLine.mode,
    json: flags.json === true,
    resume: commandLine.resume,
    cwd,
    notes: [...layers.fileNotes, ...sources.notes],
    secrets: knownSecrets(env, chosen.apiKey),
    settings,
    mcpStartTimeoutSeconds: numberSetting('SYLVAN_MCP_START_TIMEOUT', sources, 10),
    notifyAfterSeconds: numberSetting('SYLVAN_NOTIFY_AFTER', sources, DEFAULT_NOTIFY_AFTER_SECONDS),
    thinking: parseThinkingOptions(flags, env),
    sandbox: resolveSandboxSettings({
      flag: flags.sandbox,
      trustedVariable: environment.SYLVAN_SANDBOX,
      folderVariable: sources.lookup('SYLVAN_SANDBOX')?.layer.trusted === false ? sources.lookup('SYLVAN_SANDBOX')?.value : undefined,
      layers: settings.layers,
      fail: configError,
    }),
    cache: cache ?? 'explicit',
    budgets: resolveBudgets({ flags, environment, dotenv: layers.dotenv, layers: settings.layers, fail: configError }),
    breaker: resolveBreaker(settings.layers, configError),
    prices,
    ...(statusLine && { statusLine }),
  };
}

/** A variable that takes one of a few words, or undefined when unset; anything else is a `ConfigError`. */
function oneOf<T extends string>(sources: SettingsSources, name: string, allowed: readonly T[], words: string): T | undefined {
  const raw = nonEmpty(sources.lookup(name)?.value);
  if (raw !== undefined && !allowed.includes(raw as T)) throw new ConfigError(`${whereSet(name, sources)} must be ${words}, got "${raw}".`);
  return raw as T | undefined;
}
