import type { WeatherReport } from './open-meteo.ts';

interface SampleCity {
  /** English and Chinese spellings (and common aliases) the user might type. */
  readonly names: readonly string[];
  readonly report: WeatherReport;
}

/** Fixed, made-up-but-plausible conditions, used when live weather is switched off. */
const SAMPLE_CITIES: readonly SampleCity[] = [
  city(['Beijing', '北京', 'Peking'], 'Beijing (北京), China', 'Asia/Shanghai', {
    weatherCode: 1, temperatureCelsius: 12, apparentTemperatureCelsius: 10, relativeHumidityPercent: 35,
    windSpeedKilometresPerHour: 14, windDirectionDegrees: 320, uvIndex: 3,
  }),
  city(['Shanghai', '上海'], 'Shanghai (上海), China', 'Asia/Shanghai', {
    weatherCode: 3, temperatureCelsius: 17, apparentTemperatureCelsius: 17, relativeHumidityPercent: 72,
    windSpeedKilometresPerHour: 11, windDirectionDegrees: 90, uvIndex: 2,
  }),
  city(['Guangzhou', '广州', '廣州', 'Canton'], 'Guangzhou (广州), China', 'Asia/Shanghai', {
    weatherCode: 80, temperatureCelsius: 24, apparentTemperatureCelsius: 26, relativeHumidityPercent: 84,
    windSpeedKilometresPerHour: 9, windDirectionDegrees: 160, uvIndex: 4,
  }),
  city(['Shenzhen', '深圳'], 'Shenzhen (深圳), China', 'Asia/Shanghai', {
    weatherCode: 2, temperatureCelsius: 25, apparentTemperatureCelsius: 27, relativeHumidityPercent: 78,
    windSpeedKilometresPerHour: 13, windDirectionDegrees: 135, uvIndex: 6,
  }),
  city(['Hangzhou', '杭州'], 'Hangzhou (杭州), China', 'Asia/Shanghai', {
    weatherCode: 61, temperatureCelsius: 15, apparentTemperatureCelsius: 14, relativeHumidityPercent: 88,
    windSpeedKilometresPerHour: 8, windDirectionDegrees: 45, uvIndex: 1,
  }),
  city(['Chengdu', '成都'], 'Chengdu (成都), China', 'Asia/Shanghai', {
    weatherCode: 45, temperatureCelsius: 13, apparentTemperatureCelsius: 12, relativeHumidityPercent: 91,
    windSpeedKilometresPerHour: 4, windDirectionDegrees: 20, uvIndex: 1,
  }),
  city(['Tokyo', '东京', '東京', '东京都', '東京都'], 'Tokyo (东京), Japan', 'Asia/Tokyo', {
    weatherCode: 0, temperatureCelsius: 14, apparentTemperatureCelsius: 12, relativeHumidityPercent: 50,
    windSpeedKilometresPerHour: 16, windDirectionDegrees: 340, uvIndex: 3,
  }),
  city(['New York', '纽约', '紐約', 'NYC'], 'New York (纽约), United States', 'America/New_York', {
    weatherCode: 73, temperatureCelsius: -2, apparentTemperatureCelsius: -7, relativeHumidityPercent: 80,
    windSpeedKilometresPerHour: 22, windDirectionDegrees: 10, uvIndex: 0,
  }),
  city(['London', '伦敦', '倫敦'], 'London (伦敦), United Kingdom', 'Europe/London', {
    weatherCode: 53, temperatureCelsius: 8, apparentTemperatureCelsius: 5, relativeHumidityPercent: 86,
    windSpeedKilometresPerHour: 19, windDirectionDegrees: 240, uvIndex: 1,
  }),
  city(['San Francisco', '旧金山', '舊金山', '三藩市', 'SF'], 'San Francisco (旧金山), United States', 'America/Los_Angeles', {
    weatherCode: 45, temperatureCelsius: 14, apparentTemperatureCelsius: 13, relativeHumidityPercent: 82,
    windSpeedKilometresPerHour: 18, windDirectionDegrees: 270, uvIndex: 2,
  }),
];

/**
 * The sample report for a city, matched case-insensitively by English or Chinese name, ignoring
 * spaces, a trailing "City"/"市" and anything after a comma ("北京市", "Beijing City",
 * "new york, USA" all match). Undefined when the city has no sample.
 */
export function findSampleWeather(name: string): WeatherReport | undefined {
  const wanted = normalizeCityName(name);
  return SAMPLE_CITIES.find((sample) => sample.names.some((alias) => normalizeCityName(alias) === wanted))
    ?.report;
}

/** The cities with sample data, for messages: "Beijing (北京), Shanghai (上海), …". */
export function listSampleCities(): string {
  return SAMPLE_CITIES.map((sample) => `${sample.names[0]} (${sample.names[1]})`).join(', ');
}

function normalizeCityName(name: string): string {
  const beforeComma = name.normalize('NFKC').split(/[,，]/)[0] ?? '';
  return beforeComma
    .toLowerCase()
    .replace(/[\s.'’_-]/g, '')
    .replace(/(?:city|市)$/u, '');
}

function city(
  names: readonly string[],
  place: string,
  timeZone: string,
  conditions: Omit<WeatherReport, 'place' | 'timeZone'>,
): SampleCity {
  return { names, report: { place, timeZone, ...conditions } };
}
