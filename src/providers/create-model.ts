import type { LanguageModelV4, LanguageModelV4Middleware } from '@ai-sdk/provider';
import { wrapLanguageModel, type LanguageModel } from 'ai';
import type { Config } from '../config/config.ts';
import type { ProviderContext } from './errors/provider-errors.ts';
import type { RetryNotice } from './retry-notice.ts';
import { cacheMarkersMiddleware } from './cache-markers.ts';
import { guardedFetch } from './guarded-fetch.ts';
import { supportsExplicitCache } from '../models/model-catalogue.ts';
import { dashscopeSearchFetch, type SearchSourceLog } from './dashscope-search.ts';
import { thinkingRequest, type ThinkingSetting } from '../models/thinking.ts';
import { withPartFilters } from './part-filters.ts';
import { thinkTagsFilter } from './think-tags-filter.ts';
import { toolMarkupFilter } from './tool-markup-filter.ts';
import { truncatedCallsFilter } from './truncated-calls-filter.ts';

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

/** The provider package's own model for a config, every request going through `fetch`. */
export type BaseModel = (config: Config, fetch: typeof globalThis.fetch) => LanguageModelV4;

/**
 * The model for a config, from its provider package's `base` (see `loadModelFactory`): every
 * request goes through `guardedFetch`, which owns retries and reads a 200 before the SDK, and the
 * answer through Sylvan's middleware.
 */
export function createModel(config: Config, base: BaseModel, options: ModelOptions = {}): LanguageModel {
  const guarded = guardedFetch({ maxRetries: config.maxRetries, onRetry: options.onRetry });
  const searchesOnServer = config.provider === 'dashscope' && config.search?.backend === 'dashscope';
  const fetch = searchesOnServer ? dashscopeSearchFetch((sources) => options.searchSources?.add(sources), guarded) : guarded;
  const middleware: LanguageModelV4Middleware[] = [];
  if (config.provider === 'dashscope') middleware.push(thinkingMiddleware(config.model, options));
  if (sendsCacheMarkers(config)) middleware.push(cacheMarkersMiddleware());
  const model = base(config, fetch);
  // The stream's own filters, in the order they read it: think tags first, then leaked call markup.
  return withPartFilters(middleware.length > 0 ? wrapLanguageModel({ model, middleware }) : model, [thinkTagsFilter, toolMarkupFilter, truncatedCallsFilter]);
}

/** Explicit cache markers go to DashScope models that take them, unless SYLVAN_CACHE says otherwise. */
const sendsCacheMarkers = (config: Pick<Config, 'provider' | 'model' | 'cache'>): boolean =>
  config.provider === 'dashscope' && (config.cache ?? 'explicit') === 'explicit' && supportsExplicitCache(config.model);

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
