import type { LanguageModel } from 'ai';
import type { Config } from '../config/config.ts';
import { createModel, type BaseModel, type ModelOptions } from './create-model.ts';

/** Makes the model for a config (another model name, the same provider), synchronously. */
export type ModelFactory = (config: Config, options?: ModelOptions) => LanguageModel;

const isOpenAIItself = (baseURL: string | undefined): boolean => baseURL === undefined || /^https:\/\/api\.openai\.com\//.test(`${baseURL}/`);

/**
 * Loads the one provider package a config talks through, and gives the factory of its models.
 * DashScope goes through the AI SDK's DashScope provider (`@ai-sdk/alibaba`: `reasoning_content`,
 * blank tool-call ids, `enable_thinking`); OpenAI itself through `@ai-sdk/openai`'s chat API; every
 * other OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio, DeepSeek, Gemini) through
 * `@ai-sdk/openai-compatible`, which reads `reasoning_content` and index-less tool-call deltas.
 *
 * Only the package in use is loaded: `@ai-sdk/openai` alone is ~450 kB that every start used to
 * parse (Node 20 has no compile cache). It loads with the runtime, after the prompt, never inside
 * a request (where it would count against --timeout). The provider never changes within a
 * session: `/model` changes the model name only.
 */
export async function loadModelFactory(config: Pick<Config, 'provider' | 'baseURL'>): Promise<ModelFactory> {
  if (config.provider === 'mock') {
    const { createMockModel } = await import('./mock/mock-model.ts');
    return (chosen) => createMockModel({ delayMs: chosen.mockDelayMs });
  }
  const base = await loadBaseModel(config);
  return (chosen, options) => createModel(chosen, base, options);
}

async function loadBaseModel(config: Pick<Config, 'provider' | 'baseURL'>): Promise<BaseModel> {
  if (config.provider === 'dashscope') {
    const { createAlibaba } = await import('@ai-sdk/alibaba');
    return (chosen, fetch) => createAlibaba({ baseURL: chosen.baseURL, apiKey: chosen.apiKey, fetch }).chatModel(chosen.model);
  }
  if (isOpenAIItself(config.baseURL)) {
    const { createOpenAI } = await import('@ai-sdk/openai');
    return (chosen, fetch) => createOpenAI({ baseURL: chosen.baseURL, apiKey: chosen.apiKey, fetch }).chat(chosen.model);
  }
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  return (chosen, fetch) =>
    createOpenAICompatible({ name: 'openai-compatible', baseURL: chosen.baseURL ?? '', apiKey: chosen.apiKey, fetch, includeUsage: true }).chatModel(
      chosen.model,
    );
}
