import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import type { Config } from '../config.ts';
import type { ProviderContext } from '../agent/describe-error.ts';
import { createMockModel } from './mock/mock-model.ts';
import { dashscopeSearchFetch, type SearchSourceLog } from './dashscope-search.ts';

/**
 * The model for a config. DashScope and other OpenAI-compatible servers go through the chat
 * completions API (`.chat()`), never the Responses API, which they do not speak.
 */
export function createModel(config: Config, hooks: { searchSources?: SearchSourceLog } = {}): LanguageModel {
  if (config.provider === 'mock') return createMockModel({ delayMs: config.mockDelayMs });
  const searchesOnServer = config.provider === 'dashscope' && config.search?.backend === 'dashscope';
  const provider = createOpenAI({
    name: config.provider,
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    ...(searchesOnServer && { fetch: dashscopeSearchFetch((sources) => hooks.searchSources?.add(sources)) }),
  });
  return provider.chat(config.model);
}

/** How the model is named in messages to the user. */
export function providerContext(config: Config): ProviderContext {
  const label =
    config.provider === 'dashscope' ? 'DashScope' : config.provider === 'openai' ? 'The OpenAI-compatible server' : 'The mock model';
  return {
    label,
    model: config.model,
    baseURL: config.baseURL,
    keyVariable: config.keyVariable,
    baseUrlVariable: config.baseUrlVariable,
  };
}
