import { tool } from 'ai';
import { z } from 'zod';
import { describeWeatherCode, fetchCurrentWeather, type WeatherReport } from './open-meteo.ts';
import { findSampleWeather, listSampleCities } from './weather-sample.ts';

export interface WeatherToolOptions {
  /** 'live' asks Open-Meteo; 'sample' answers from built-in fixed data without any network. */
  readonly source: 'live' | 'sample';
  /** Injected by tests; defaults to the global fetch. */
  readonly fetch?: typeof globalThis.fetch;
  /** Budget for one whole lookup; defaults to 10 seconds. */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

const LIVE_DESCRIPTION = `Get the current weather for a city, live from Open-Meteo: conditions, temperature and feels-like temperature in °C, relative humidity, wind speed in km/h and the direction it blows from, UV index, and the local time of the observation.
Use it whenever the user asks about the weather, temperature, rain, wind or what to wear somewhere right now. One city per call; call it again for each city being compared.
Limits: current conditions only (no forecasts, history or alerts); units are metric, so convert yourself if the user wants °F or mph (use the calculate tool). If it fails, tell the user the weather is unavailable: never guess or invent weather.`;

const SAMPLE_DESCRIPTION = `Get SAMPLE weather for a city. Live weather is switched off in this installation, so this returns fixed, built-in sample values (conditions, °C, humidity, km/h wind, UV index) and only for: ${listSampleCities()}.
Use it when the user asks about the weather, and always tell them the numbers are sample data, not current conditions. For any other city it fails; then say that live weather needs SYLVAN_WEATHER=live. Never guess or invent weather.`;

/**
 * The `get_weather` tool: { city } → one line of current conditions, e.g.
 * "Beijing (北京), China: Partly cloudy, 21°C (feels like 20°C), humidity 40%, wind 12 km/h from the NW, UV index 5. Observed 2026-11-30T14:00 local time (Asia/Shanghai)."
 * Failures throw Errors written for the model (unknown place, service unavailable, no sample for the city).
 * Live lookups honour the call's abortSignal plus a timeout (default 10 s).
 */
export function createWeatherTool(options: WeatherToolOptions) {
  const fetchFunction = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return tool({
    description: options.source === 'live' ? LIVE_DESCRIPTION : SAMPLE_DESCRIPTION,
    inputSchema: z.object({
      city: z
        .string()
        .min(1)
        .describe('The city, in English or Chinese, e.g. "Beijing", "北京", "San Francisco". Add the country or region after a comma only to tell apart places with the same name, e.g. "Paris, France".'),
    }),
    execute: async ({ city }, { abortSignal }) => {
      const name = city.trim();
      if (options.source === 'sample') return sampleWeather(name);
      const report = await fetchCurrentWeather(name, { fetch: fetchFunction, timeoutMs, abortSignal });
      const observed = report.observedAt
        ? ` Observed ${report.observedAt} local time${report.timeZone ? ` (${report.timeZone})` : ''}.`
        : '';
      return `${report.place}: ${describeConditions(report)}.${observed}`;
    },
  });
}

function sampleWeather(city: string): string {
  const report = findSampleWeather(city);
  if (report === undefined) {
    throw new Error(
      `There is no sample weather for "${city}"; sample data covers only ${listSampleCities()}. Live weather for other cities needs SYLVAN_WEATHER=live. Tell the user this; do not invent weather.`,
    );
  }
  return `${report.place} (sample data, not live): ${describeConditions(report)}. These are fixed sample values, not current weather; say so when you use them.`;
}

/** "Partly cloudy, 21°C (feels like 20°C), humidity 40%, wind 12 km/h from the NW, UV index 5" */
function describeConditions(report: WeatherReport): string {
  const parts: string[] = [];
  const temperature = `${Math.round(report.temperatureCelsius)}°C`;
  const feelsLike =
    report.apparentTemperatureCelsius === undefined
      ? ''
      : ` (feels like ${Math.round(report.apparentTemperatureCelsius)}°C)`;
  if (report.weatherCode !== undefined) parts.push(describeWeatherCode(report.weatherCode));
  parts.push(temperature + feelsLike);
  if (report.relativeHumidityPercent !== undefined) {
    parts.push(`humidity ${Math.round(report.relativeHumidityPercent)}%`);
  }
  if (report.windSpeedKilometresPerHour !== undefined) {
    const direction =
      report.windDirectionDegrees === undefined ? '' : ` from the ${compassPoint(report.windDirectionDegrees)}`;
    parts.push(`wind ${Math.round(report.windSpeedKilometresPerHour)} km/h${direction}`);
  }
  if (report.uvIndex !== undefined) parts.push(`UV index ${Math.round(report.uvIndex)}`);
  return parts.join(', ');
}

function compassPoint(degrees: number): string {
  const points = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
  return points[(((Math.round(degrees / 45) % 8) + 8) % 8)] ?? 'N';
}
