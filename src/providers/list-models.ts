import type { Config } from '../config/config.ts';

export type ServerModels = { ok: true; models: string[] } | { ok: false; reason: string };

/** `/model` waits this long for the list, then says the server did not answer. */
const LIST_TIMEOUT_MS = 5000;

/**
 * The models the server offers: `GET {baseURL}/models` (DashScope's compatible mode, OpenAI,
 * vLLM, Ollama, LM Studio all answer it with `{ data: [{ id }] }`). Never throws.
 */
export async function listServerModels(config: Config, signal?: AbortSignal): Promise<ServerModels> {
  if (config.provider === 'mock' || !config.baseURL) return { ok: false, reason: 'the mock provider has one model' };
  const timeout = AbortSignal.timeout(LIST_TIMEOUT_MS);
  try {
    const response = await fetch(`${config.baseURL}/models`, {
      headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) return { ok: false, reason: `the server answered ${response.status}` };
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return { ok: false, reason: 'the server sent no model list' };
    const models = body.data
      .map((entry) => (entry !== null && typeof entry === 'object' ? (entry as { id?: unknown }).id : undefined))
      .filter((id): id is string => typeof id === 'string' && id !== '')
      .sort();
    return { ok: true, models };
  } catch (error) {
    if (timeout.aborted) return { ok: false, reason: `no answer within ${LIST_TIMEOUT_MS / 1000} s` };
    return { ok: false, reason: error instanceof Error ? error.message : 'the request failed' };
  }
}
