import { createAlibaba } from '@ai-sdk/alibaba';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4, LanguageModelV4Middleware } from '@ai-sdk/provider';
import { extractReasoningMiddleware, wrapLanguageModel, type LanguageModel } from 'ai';
import type { Config } from '../config.ts';
import type { ProviderContext } from '../agent/describe-error.ts';
import type { RetryNotice } from '../agent/events.ts';
import { cacheMarkersMiddleware } from './cache-markers.ts';
import { guardedFetch } from './guarded-fetch.ts';
import { createMockModel } from './mock/mock-model.ts';
import { supportsExplicitCache } from './model-catalogue.ts';
import { dashscopeSearchFetch, type SearchSourceLog } from './dashscope-search.ts';
import { thinkingRequest, type ThinkingSetting } from './thinking.ts';
import { toolMarkupMiddleware } from './tool-markup-middleware.ts';
import { truncatedCallsMiddleware } from './truncated-calls-middleware.ts';

export interface ModelOptions {
  /** The thinking setting at the time of each request (`/think` changes it between turns). */
  thinking?: () => ThinkingSetting;
  /** Compaction requests never think. */
  purpose?: 'answer' | 'compaction';
  /** With SYLVAN_SEARCH=dashscope, where the sources DashScope searched are collected for the UI. */
  searchSources?: SearchSourceLog;
  /** Told before each retry of a request (the turn shows it in the status line). */
  onRetry?: (retry: RetryNotice) => void;
}

const isOpenAIItself = (baseURL: string | undefined): boolean => baseURL === undefined || /^https:\/\/api\.openai\.com\//.test(`${baseURL}/`);

/**
 * The model for a config. DashScope goes through the AI SDK's DashScope provider
 * (`@ai-sdk/alibaba`: `reasoning_content`, blank tool-call ids, `enable_thinking`); OpenAI itself
 * through `@ai-sdk/openai`'s chat API; every other OpenAI-compatible server (vLLM, Ollama,
 * llama.cpp, LM Studio, DeepSeek, Gemini) through `@ai-sdk/openai-compatible`, which reads
 * `reasoning_content` and index-less tool-call deltas. They load with the runtime, after the prompt
 * (an import inside the first request would count against its --timeout), and every request goes
 * through `guardedFetch`, which owns retries and reads a 200 before the SDK.
 */
export function createModel(config: Config, options: ModelOptions = {}): LanguageModel {
  if (config.provider === 'mock') return createMockModel({ delayMs: config.mockDelayMs });
  const guarded = guardedFetch({ maxRetries: config.maxRetries, onRetry: options.onRetry });
  const searchesOnServer = config.provider === 'dashscope' && config.search?.backend === 'dashscope';
  const fetch = searchesOnServer ? dashscopeSearchFetch((sources) => options.searchSources?.add(sources), guarded) : guarded;
  const base = (): LanguageModelV4 => {
    if (config.provider === 'dashscope') {
      return createAlibaba({ baseURL: config.baseURL, apiKey: config.apiKey, fetch }).chatModel(config.model);
    }
    if (isOpenAIItself(config.baseURL)) {
      return createOpenAI({ baseURL: config.baseURL, apiKey: config.apiKey, fetch }).chat(config.model);
    }
    return createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: config.baseURL ?? '',
      apiKey: config.apiKey,
      fetch,
      includeUsage: true,
    }).chatModel(config.model);
  };
  const middleware: LanguageModelV4Middleware[] = [truncatedCallsMiddleware(), toolMarkupMiddleware(), thinkTagsMiddleware()];
  if (config.provider === 'dashscope') middleware.push(thinkingMiddleware(config.model, options));
  if (sendsCacheMarkers(config)) middleware.push(cacheMarkersMiddleware());
  return wrapLanguageModel({ model: base(), middleware });
}

/** Explicit cache markers go to DashScope models that take them, unless SYLVAN_CACHE says otherwise. */
export const sendsCacheMarkers = (config: Pick<Config, 'provider' | 'model' | 'cache'>): boolean =>
  config.provider === 'dashscope' && (config.cache ?? 'explicit') === 'explicit' && supportsExplicitCache(config.model);

/** `<think>…</think>` in the content (vLLM, llama.cpp without a reasoning parser) becomes reasoning. */
const thinkTagsMiddleware = (): LanguageModelV4Middleware => ({
  ...extractReasoningMiddleware({ tagName: 'think' }),
  specificationVersion: 'v4',
});

/** Adds `enableThinking` / `thinkingBudget` for DashScope to each request, from the current setting. */
function thinkingMiddleware(model: string, options: ModelOptions): LanguageModelV4Middleware {
  return {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      const setting = options.thinking?.() ?? { mode: 'auto' };
      const request = thinkingRequest(model, setting, options.purpose ?? 'answer');
      if (Object.keys(request).length === 0) return params;
      const providerOptions = params.providerOptions ?? {};
      return { ...params, providerOptions: { ...providerOptions, alibaba: { ...providerOptions.alibaba, ...request } } };
    },
  };
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
    contextTokens: config.contextTokens,
  };
}
