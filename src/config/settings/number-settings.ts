/**
 * Every numeric setting, its flag, its unit and its range, in one table (docs/configuration.md's
 * configuration table quotes these). Values are plain decimal integers: no exponent, no hex, no
 * fraction, no sign, so `1e3`, `0x10` and `99999999999999999999` are errors rather than surprises.
 */
const NUMBER_SETTINGS = {
  SYLVAN_MAX_STEPS: { flag: '--max-steps', min: 1, max: 1_000, unit: 'model requests' },
  SYLVAN_TOKEN_BUDGET: { flag: '--token-budget', min: 1, max: 1_000_000_000, unit: 'tokens' },
  // Timers overflow past 2^31-1 ms (about 24.8 days) and then fire at once; a day is plenty.
  SYLVAN_TIMEOUT: { flag: '--timeout', min: 1, max: 86_400, unit: 'seconds' },
  SYLVAN_TOOL_TIMEOUT: { flag: undefined, min: 1, max: 86_400, unit: 'seconds' },
  SYLVAN_MAX_RETRIES: { flag: undefined, min: 0, max: 20, unit: 'retries' },
  SYLVAN_MOCK_DELAY_MS: { flag: undefined, min: 0, max: 60_000, unit: 'milliseconds' },
  SYLVAN_CONTEXT_TOKENS: { flag: undefined, min: 1_000, max: 100_000_000, unit: 'tokens' },
  SYLVAN_MCP_START_TIMEOUT: { flag: undefined, min: 1, max: 600, unit: 'seconds' },
  SYLVAN_NOTIFY_AFTER: { flag: undefined, min: 0, max: 86_400, unit: 'seconds' },
} as const satisfies Record<string, { flag: string | undefined; min: number; max: number; unit: string }>;
import { digits } from '../../shared/text/count-text.ts';

export type NumberSettingName = keyof typeof NUMBER_SETTINGS;

const PLAIN_INTEGER = /^[0-9]{1,15}$/;

/**
 * Parses `raw` (undefined or blank → `fallback`) as the setting `name`, reported as `shownAs` (the
 * flag or the variable the user set). Throws `makeError(message)` with one line naming the setting
 * and its range.
 */
export function parseNumberSetting(
  name: NumberSettingName,
  raw: string | undefined,
  fallback: number,
  shownAs: string,
  makeError: (message: string) => Error,
): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const { min, max, unit } = NUMBER_SETTINGS[name];
  const text = raw.trim();
  const value = PLAIN_INTEGER.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const printable = text.replace(/[\u0000-\u001f\u007f]/g, '?');
    const shown = printable.length > 40 ? `${printable.slice(0, 40)}…` : printable;
    throw makeError(`${shownAs} must be a whole number from ${min} to ${digits(max)} (${unit}), got "${shown}".`);
  }
  return value;
}
