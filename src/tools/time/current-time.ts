import { tool } from 'ai';
import { z } from 'zod';
import { intlTimeZone, localTimeZone } from './local-time-zone.ts';

export interface CurrentTimeToolOptions {
  /** The clock; tests pass a fixed one. Defaults to the system clock. */
  readonly now?: () => Date;
  /** The zone used when the model names none; defaults to this machine's zone. */
  readonly defaultTimeZone?: string;
}

/** Names people use for a zone, keyed by lower-case name without spaces. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ...aliases('Asia/Shanghai', ['beijing', '北京', 'china', '中国', 'shanghai', '上海', 'prc']),
  ...aliases('Asia/Hong_Kong', ['hongkong', '香港']),
  ...aliases('Asia/Taipei', ['taipei', '台北', 'taiwan', '台湾']),
  ...aliases('Asia/Tokyo', ['tokyo', '东京', 'japan', '日本']),
  ...aliases('Asia/Seoul', ['seoul', '首尔', 'korea', '韩国']),
  ...aliases('Asia/Singapore', ['singapore', '新加坡']),
  ...aliases('Asia/Kolkata', ['india', '印度', 'delhi', 'newdelhi', 'mumbai']),
  ...aliases('Europe/London', ['london', '伦敦', 'uk', 'britain']),
  ...aliases('Europe/Paris', ['paris', '巴黎', 'france']),
  ...aliases('Europe/Berlin', ['berlin', '柏林', 'germany']),
  ...aliases('Europe/Moscow', ['moscow', '莫斯科']),
  ...aliases('America/New_York', ['newyork', '纽约', 'nyc']),
  ...aliases('America/Chicago', ['chicago', '芝加哥']),
  ...aliases('America/Los_Angeles', ['losangeles', '洛杉矶', 'sanfrancisco', '旧金山', 'seattle']),
  ...aliases('Australia/Sydney', ['sydney', '悉尼']),
  ...aliases('UTC', ['utc', 'gmt', 'z', 'zulu']),
]);

/** "UTC+8", "GMT-05:30", "+0800": fixed offsets, computed here (Node 20's Intl knows no offset zones). */
const OFFSET = /^(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;
/** The widest offset any place uses is UTC+14 (Kiribati); anything past it is a typo. */
const MAX_OFFSET_MINUTES = 14 * 60;

/** An IANA zone, or a fixed offset east of UTC. */
type Zone = { name: string } | { offsetMinutes: number };

/**
 * The `current_time` tool: { timezone? } → e.g. "2026-11-30 15:04:05 (Monday), Asia/Shanghai (UTC+08:00)".
 * Accepts IANA names (any case), fixed offsets like "UTC+8", and a few city/country names
 * ("Beijing", "北京", "China" → Asia/Shanghai). An unknown zone throws an Error telling the model
 * to use an IANA name.
 */
export function createCurrentTimeTool(options: CurrentTimeToolOptions = {}) {
  const now = options.now ?? (() => new Date());
  const defaultTimeZone = options.defaultTimeZone ?? localTimeZone();
  return tool({
    description: `Get the current date, time and day of the week in a time zone.
Use it whenever the answer depends on the present moment: today's date, the weekday, the time somewhere, how long until or since a date. You do not know the current date otherwise, so never guess it.
Without a timezone it uses the user's local time zone (${defaultTimeZone}). Time zones are IANA names such as "Asia/Shanghai", "Europe/London", "America/New_York" or "UTC"; fixed offsets like "UTC+8" also work.`,
    inputSchema: z.object({
      timezone: z
        .string()
        .optional()
        .describe(`IANA time zone name, e.g. "Asia/Shanghai", "America/New_York", "UTC". Omit it for the user's local time zone (${defaultTimeZone}).`),
    }),
    execute: async ({ timezone }) => {
      const requested = timezone?.trim();
      if (requested) return describeInstant(now(), resolveTimeZone(requested));
      // The machine's zone as read from TZ or /etc/localtime, unless Intl knows it by another name or not at all.
      let zone: Zone;
      try {
        zone = resolveTimeZone(defaultTimeZone);
      } catch {
        zone = resolveTimeZone(intlTimeZone());
      }
      return describeInstant(now(), zone);
    },
  });
}

/** The canonical zone for an IANA name, alias or offset; throws a model-readable Error otherwise. */
function resolveTimeZone(requested: string): Zone {
  const unknown = () =>
    new Error(`Unknown time zone "${requested}"; use an IANA time zone name such as "Asia/Shanghai", "Europe/London" or "America/New_York", or "UTC".`);
  const key = requested.toLowerCase().replace(/\s+/g, '').replace(/(?:time|时间)$/u, '');
  const alias = ALIASES.get(key);
  const offset = alias === undefined ? OFFSET.exec(key) : null;
  if (offset) {
    const [hours, minutes] = [Number(offset[2]), Number(offset[3] ?? 0)];
    const offsetMinutes = (offset[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
    if (minutes > 59 || Math.abs(offsetMinutes) > MAX_OFFSET_MINUTES) throw unknown();
    return { offsetMinutes };
  }
  const candidate = alias ?? requested;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: candidate }).resolvedOptions().timeZone;
    // ICU reports some zones by their old names (Asia/Kolkata as Asia/Calcutta); keep the caller's
    // spelling then, and take ICU's only to fix the letter case ("asia/shanghai").
    return { name: resolved.toLowerCase() === candidate.toLowerCase() ? resolved : candidate };
  } catch {
    throw unknown();
  }
}

function describeInstant(instant: Date, zone: Zone): string {
  // A fixed offset is UTC's wall clock moved by that offset.
  const shown = 'offsetMinutes' in zone ? new Date(instant.getTime() + zone.offsetMinutes * 60_000) : instant;
  const timeZone = 'name' in zone ? zone.name : 'UTC';
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    weekday: 'long',
  }).formatToParts(shown);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value ?? '';
  const [year, month, day, hour, minute, second] = (['year', 'month', 'day', 'hour', 'minute', 'second'] as const).map(part);
  // A named zone's offset is how far its wall clock is ahead of UTC at this instant.
  const wallClockAsUtc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  const zoneLabel = 'offsetMinutes' in zone
    ? formatOffset(zone.offsetMinutes)
    : `${timeZone} (${formatOffset(Math.round((wallClockAsUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000))})`;
  return `${year}-${month}-${day} ${hour}:${minute}:${second} (${part('weekday')}), ${zoneLabel}`;
}

function formatOffset(totalMinutes: number): string {
  const sign = totalMinutes < 0 ? '-' : '+';
  const minutes = Math.abs(totalMinutes);
  const hours = String(Math.floor(minutes / 60)).padStart(2, '0');
  return `UTC${sign}${hours}:${String(minutes % 60).padStart(2, '0')}`;
}

function aliases(timeZone: string, names: readonly string[]): Array<[string, string]> {
  return names.map((name) => [name, timeZone]);
}
