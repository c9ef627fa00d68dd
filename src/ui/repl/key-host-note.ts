import { DASHSCOPE_BASE_URL, OPENAI_BASE_URL } from '../../config/provider-choice.ts';
import type { Config } from '../../config/config.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

/**
 * "key sent to host:port" when the key goes anywhere but the provider's own default endpoint, so a
 * redirected key is visible before the first question; undefined otherwise.
 */
export function keyHostNote(config: Config): string | undefined {
  if (config.provider === 'mock' || config.baseURL === undefined) return undefined;
  const standard = config.provider === 'dashscope' ? DASHSCOPE_BASE_URL : OPENAI_BASE_URL;
  if (config.baseURL === standard) return undefined;
  let host: string;
  try {
    host = new URL(config.baseURL).host;
  } catch {
    host = config.baseURL;
  }
  return sanitizeLine(`${config.keyVariable ?? 'the key'} is sent to ${host} (not the provider's default)`);
}
