import { ConfigError } from '../shared/config-error.ts';
import type { ProviderName } from './config.ts';
import { nonEmpty, type Environment } from './environment.ts';
import type { SettingsSources } from './settings/sources.ts';

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

/** The provider, its key and base URL, and the variables that set them (named in error advice). */
export interface ProviderChoice {
  provider: ProviderName;
  apiKey?: string;
  baseURL?: string;
  keyVariable?: string;
  baseUrlVariable?: string;
}

/**
 * `--provider`, else SYLVAN_PROVIDER, else the key that is set (DashScope's first), else the mock
 * model. A base URL counts only from a layer that may set it for that key. Throws `ConfigError`.
 */
export function chooseProvider(flag: string | undefined, env: Environment, sources: SettingsSources): ProviderChoice {
  const providerRaw = nonEmpty(flag) ?? nonEmpty(env.SYLVAN_PROVIDER);
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
  if (provider === 'dashscope') {
    if (!dashscopeKey) throw new ConfigError('The dashscope provider needs DASHSCOPE_API_KEY: set it in the environment or in .env.');
    const baseURL = httpUrl(sources.baseUrlFor('DASHSCOPE_API_KEY', 'DASHSCOPE_BASE_URL') ?? DASHSCOPE_BASE_URL, 'DASHSCOPE_BASE_URL');
    return { provider, apiKey: dashscopeKey, baseURL, keyVariable: 'DASHSCOPE_API_KEY', baseUrlVariable: 'DASHSCOPE_BASE_URL' };
  }
  if (provider === 'openai') {
    if (!openaiKey && !openaiBase) {
      throw new ConfigError('The openai provider needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server such as Ollama).');
    }
    const baseURL = httpUrl(sources.baseUrlFor('OPENAI_API_KEY', 'OPENAI_BASE_URL') ?? OPENAI_BASE_URL, 'OPENAI_BASE_URL');
    // Local servers (Ollama, llama.cpp) take no key, but the client insists on one.
    return { provider, apiKey: openaiKey ?? 'no-key', baseURL, keyVariable: 'OPENAI_API_KEY', baseUrlVariable: 'OPENAI_BASE_URL' };
  }
  return { provider };
}

/**
 * The model: `--model`, then `SYLVAN_MODEL`, then the provider's own variable (`OPENAI_MODEL`,
 * `DASHSCOPE_MODEL`: what other tools read), each from the environment or else `.env`; then the
 * settings files' `model`; then the provider's default.
 */
export function chooseModel(provider: ProviderName, flag: string | undefined, variables: SettingsSources, settings: Environment): string {
  const providerVariable = PROVIDER_MODEL_VARIABLES[provider];
  return (
    nonEmpty(flag) ??
    variables.lookup('SYLVAN_MODEL')?.value ??
    (providerVariable === undefined ? undefined : variables.lookup(providerVariable)?.value) ??
    nonEmpty(settings.SYLVAN_MODEL) ??
    DEFAULT_MODELS[provider]
  );
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
