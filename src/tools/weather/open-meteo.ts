import { z } from 'zod';

/** Current conditions at one place, in metric units; the shape both weather sources produce. */
export interface WeatherReport {
  /** How the place is shown, e.g. "北京 (Beijing), 中国" or "Beijing (北京), China". */
  readonly place: string;
  /** WMO weather interpretation code, as Open-Meteo reports it. */
  readonly weatherCode?: number;
  readonly temperatureCelsius: number;
  readonly apparentTemperatureCelsius?: number;
  readonly relativeHumidityPercent?: number;
  readonly windSpeedKilometresPerHour?: number;
  /** Where the wind blows from, in degrees clockwise from north. */
  readonly windDirectionDegrees?: number;
  readonly uvIndex?: number;
  /** Local time of the observation, ISO 8601 without offset, e.g. "2026-11-30T14:00". */
  readonly observedAt?: string;
  /** IANA time zone of the place, e.g. "Asia/Shanghai". */
  readonly timeZone?: string;
}

export interface OpenMeteoOptions {
  readonly fetch: typeof globalThis.fetch;
  /** Budget for the whole lookup (geocoding and forecast together). */
  readonly timeoutMs: number;
  /** The caller's cancellation; when it fires, its reason is rethrown unchanged. */
  readonly abortSignal?: AbortSignal;
}

const GEOCODING_URL = 'https://geocoding-api.open-meteo.com/v1/search';
const FORECAST_URL = 'https://api.open-meteo.com/v1/forecast';
const CURRENT_VARIABLES = [
  'temperature_2m',
  'apparent_temperature',
  'relative_humidity_2m',
  'wind_speed_10m',
  'wind_direction_10m',
  'weather_code',
  'uv_index',
].join(',');

const geocodingResponseSchema = z.object({
  results: z
    .array(
      z.object({
        name: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        country: z.string().optional(),
        admin1: z.string().optional(),
        timezone: z.string().optional(),
      }),
    )
    .optional(),
});

type Place = NonNullable<z.infer<typeof geocodingResponseSchema>['results']>[number];

// Open-Meteo sends null for a variable it has no value for (UV at some stations, for instance).
const optionalNumber = z.number().nullish();

const forecastResponseSchema = z.object({
  timezone: z.string().optional(),
  current: z.object({
    time: z.string().optional(),
    temperature_2m: z.number(),
    apparent_temperature: optionalNumber,
    relative_humidity_2m: optionalNumber,
    wind_speed_10m: optionalNumber,
    wind_direction_10m: optionalNumber,
    weather_code: optionalNumber,
    uv_index: optionalNumber,
  }),
});

/**
 * Looks up the current weather for a city on Open-Meteo (no API key): geocodes the name in Chinese
 * (so 北京 matches) and, if nothing is found, once more in English, then fetches current conditions
 * in °C and km/h. Throws an Error written for the model when the place is unknown or the service
 * cannot be used (HTTP error, network failure, timeout, malformed reply); rethrows the caller's
 * abort reason when `abortSignal` fires.
 */
export async function fetchCurrentWeather(city: string, options: OpenMeteoOptions): Promise<WeatherReport> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, timeout]) : timeout;
  const request = (url: string) => requestJson(url, { ...options, signal, timeout });

  const place =
    (await findPlace(city, 'zh', request)) ?? (await findPlace(city, 'en', request));
  if (place === undefined) {
    throw new Error(
      `No place called "${city}" was found; ask the user to check the spelling or give a nearby larger city.`,
    );
  }
  const forecastUrl = new URL(FORECAST_URL);
  forecastUrl.search = new URLSearchParams({
    latitude: String(place.latitude),
    longitude: String(place.longitude),
    current: CURRENT_VARIABLES,
    timezone: 'auto',
  }).toString();
  const parsed = forecastResponseSchema.safeParse(await request(forecastUrl.toString()));
  if (!parsed.success) throw unavailable('the weather service sent a reply without current conditions');
  const { current } = parsed.data;
  return {
    place: describePlace(place, city),
    weatherCode: current.weather_code ?? undefined,
    temperatureCelsius: current.temperature_2m,
    apparentTemperatureCelsius: current.apparent_temperature ?? undefined,
    relativeHumidityPercent: current.relative_humidity_2m ?? undefined,
    windSpeedKilometresPerHour: current.wind_speed_10m ?? undefined,
    windDirectionDegrees: current.wind_direction_10m ?? undefined,
    uvIndex: current.uv_index ?? undefined,
    observedAt: current.time,
    timeZone: parsed.data.timezone ?? place.timezone,
  };
}

/** English words for a WMO weather interpretation code, e.g. 2 → "Partly cloudy". */
export function describeWeatherCode(code: number): string {
  return WEATHER_CODES.get(code) ?? `Weather code ${code}`;
}

async function findPlace(
  city: string,
  language: 'zh' | 'en',
  request: (url: string) => Promise<unknown>,
): Promise<Place | undefined> {
  const url = new URL(GEOCODING_URL);
  url.search = new URLSearchParams({ name: city, count: '1', language, format: 'json' }).toString();
  const parsed = geocodingResponseSchema.safeParse(await request(url.toString()));
  if (!parsed.success) throw unavailable('the place search sent an unexpected reply');
  return parsed.data.results?.[0];
}

async function requestJson(
  url: string,
  options: OpenMeteoOptions & { signal: AbortSignal; timeout: AbortSignal },
): Promise<unknown> {
  try {
    const response = await options.fetch(url, { signal: options.signal, headers: { accept: 'application/json' } });
    if (!response.ok) {
      throw unavailable(`the weather service answered HTTP ${response.status}${await errorReason(response)}`);
    }
    return await response.json();
  } catch (error) {
    if (options.abortSignal?.aborted) throw options.abortSignal.reason;
    if (error instanceof WeatherUnavailableError) throw error;
    if (options.timeout.aborted) {
      throw unavailable(`the weather service did not answer within ${options.timeoutMs / 1000} s`);
    }
    if (error instanceof SyntaxError) throw unavailable('the weather service sent a reply that is not JSON');
    throw unavailable(`could not reach the weather service: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Open-Meteo explains its 4xx replies in a JSON "reason"; it helps whoever reads the error. */
async function errorReason(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    const reason = z.object({ reason: z.string() }).safeParse(body);
    return reason.success ? ` (${reason.data.reason.slice(0, 200)})` : '';
  } catch {
    return '';
  }
}

/** Marks errors already worded for the model, so the catch-all below passes them through. */
class WeatherUnavailableError extends Error {}

function unavailable(cause: string): WeatherUnavailableError {
  return new WeatherUnavailableError(
    `Weather data is unavailable right now (${cause}). Tell the user you could not get the weather; do not guess or invent it.`,
  );
}

/** "广州 (Guangzhou), 广东, 中国": the name found, the user's spelling if different, region, country. */
function describePlace(place: Place, query: string): string {
  const name = place.name;
  const spelledDifferently = !includesIgnoringCase(name, query.trim()) && !includesIgnoringCase(query, name);
  const parts = [spelledDifferently ? `${name} (${query.trim()})` : name];
  if (place.admin1 && !includesIgnoringCase(place.admin1, name) && !includesIgnoringCase(name, place.admin1)) {
    parts.push(place.admin1);
  }
  if (place.country) parts.push(place.country);
  return parts.join(', ');
}

function includesIgnoringCase(text: string, part: string): boolean {
  return text.toLowerCase().includes(part.toLowerCase());
}

const WEATHER_CODES: ReadonlyMap<number, string> = new Map([
  [0, 'Clear sky'],
  [1, 'Mainly clear'],
  [2, 'Partly cloudy'],
  [3, 'Overcast'],
  [45, 'Fog'],
  [48, 'Depositing rime fog'],
  [51, 'Light drizzle'],
  [53, 'Moderate drizzle'],
  [55, 'Dense drizzle'],
  [56, 'Light freezing drizzle'],
  [57, 'Dense freezing drizzle'],
  [61, 'Slight rain'],
  [63, 'Moderate rain'],
  [65, 'Heavy rain'],
  [66, 'Light freezing rain'],
  [67, 'Heavy freezing rain'],
  [71, 'Slight snowfall'],
  [73, 'Moderate snowfall'],
  [75, 'Heavy snowfall'],
  [77, 'Snow grains'],
  [80, 'Slight rain showers'],
  [81, 'Moderate rain showers'],
  [82, 'Violent rain showers'],
  [85, 'Slight snow showers'],
  [86, 'Heavy snow showers'],
  [95, 'Thunderstorm'],
  [96, 'Thunderstorm with slight hail'],
  [99, 'Thunderstorm with heavy hail'],
]);
