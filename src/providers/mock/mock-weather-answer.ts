import { lookUpPlace } from './mock-places.ts';
import type { MockLanguage } from './mock-prompt.ts';

/** Open-Meteo's condition words (and a few common others) in Chinese, most specific first. */
const CONDITIONS_IN_CHINESE: ReadonlyArray<[RegExp, string]> = [
  [/thunderstorm.*hail/i, '雷阵雨伴有冰雹'], [/thunder/i, '雷阵雨'], [/freezing rain/i, '冻雨'],
  [/freezing drizzle/i, '冻毛毛雨'], [/snow showers/i, '阵雪'], [/rain showers|shower/i, '阵雨'], [/drizzle/i, '毛毛雨'],
  [/(?:heavy|violent) rain/i, '大雨'], [/moderate rain/i, '中雨'], [/(?:slight|light) rain/i, '小雨'], [/rain/i, '有雨'],
  [/snow grains/i, '米雪'], [/heavy snow/i, '大雪'], [/moderate snow/i, '中雪'], [/(?:slight|light) snow/i, '小雪'],
  [/snow/i, '下雪'], [/fog|mist|haze/i, '有雾'], [/partly cloudy|partly sunny/i, '多云'],
  [/overcast|mostly cloudy|cloudy/i, '阴'], [/mainly clear|mostly clear|mostly sunny/i, '基本晴朗'], [/clear|sunny/i, '晴'],
];

const WIND_DIRECTIONS: Record<string, string> = {
  N: '北', S: '南', E: '东', W: '西', NE: '东北', NW: '西北', SE: '东南', SW: '西南',
  NNE: '东北', ENE: '东北', ESE: '东南', SSE: '东南', SSW: '西南', WSW: '西南', WNW: '西北', NNW: '西北',
};

const SAMPLE_MARK = /\(?\s*sample data(?:, not live)?\s*\)?|示例数据/i;

/**
 * Answers a get_weather result ("Beijing (北京), China: Partly cloudy, 21°C (feels like 20°C), humidity 40%, wind
 * 12 km/h from the NW, UV index 5. Observed … local time (…)."): in Chinese a natural sentence built from those
 * figures, in English the conditions quoted; sample data is always flagged as such. Pure.
 */
export function answerWeather(text: string, city: string | undefined, language: MockLanguage): string {
  // Only an early colon separates the place from the details; a later one belongs to a time like 14:00.
  const searched = text.search(/[:：]/);
  const prefix = text.slice(0, Math.max(searched, 0));
  const colon = searched > 0 && searched < 120 && !/\d$/.test(prefix) && !/[{}[\]"]/.test(prefix) ? searched : -1;
  const place = colon > 0 ? text.slice(0, colon).trim() : undefined;
  const details = colon > 0 ? text.slice(colon + 1).trim() : text.trim();
  const isSample = SAMPLE_MARK.test(text);
  const sentences = details.split(/(?<=\.)\s+/);
  const conditions = (sentences[0] ?? '').replace(SAMPLE_MARK, '').replace(/[.\s]+$/, '');
  const observed = sentences.find((sentence) => /^Observed\b/.test(sentence));

  if (language === 'en') {
    const where = place ? place.replace(SAMPLE_MARK, '').replace(/\s*\([^)]*[\u4e00-\u9fff][^)]*\)/g, '').trim() : city;
    const note = [observed, isSample ? '(Sample data, not live.)' : undefined].filter(Boolean).join(' ');
    return `Here's the weather${where ? ` in ${where}` : ''}: ${conditions}.${note ? ` ${note}` : ''}`;
  }

  const name = chinesePlaceName(place, city);
  const temperature = /(-?\d+(?:\.\d+)?)\s*(?:°\s*C|℃|度)/i.exec(conditions)?.[1];
  if (!temperature || /[\u4e00-\u9fff]/.test(conditions)) return `${name}的天气：${details}`;
  const condition = CONDITIONS_IN_CHINESE.find(([pattern]) => pattern.test(conditions.split(',')[0] ?? ''))?.[1];
  const feelsLike = /feels like\s*(-?\d+(?:\.\d+)?)/i.exec(conditions)?.[1];
  const humidity = /humidity\s*(\d+(?:\.\d+)?)\s*%/i.exec(conditions)?.[1];
  const wind = /wind\s*(\d+(?:\.\d+)?\s*(?:km\/h|m\/s|mph))(?:\s*(?:from the\s+)?([NSEW]{1,3})\b)?/i.exec(conditions);
  const direction = wind?.[2] ? WIND_DIRECTIONS[wind[2].toUpperCase()] : undefined;
  const uvIndex = /UV index\s*(\d+(?:\.\d+)?)/i.exec(conditions)?.[1];
  const observedAt = observed ? /Observed\s+(\d{4}-\d{2}-\d{2})T?\s*(\d{2}:\d{2})/.exec(observed) : null;
  const pieces = [
    `${name}现在${condition ?? ''}`,
    `气温 ${temperature}°C${feelsLike ? `（体感 ${feelsLike}°C）` : ''}`,
    humidity ? `湿度 ${humidity}%` : undefined,
    wind?.[1] ? `${direction ? `${direction}风` : '风速'} ${wind[1]}` : undefined,
    uvIndex ? `紫外线指数 ${uvIndex}` : undefined,
  ].filter((piece): piece is string => piece !== undefined);
  const note = isSample ? '（示例数据，不是实时天气）' : observedAt ? `（当地 ${observedAt[1]} ${observedAt[2]} 的观测）` : '';
  return `${pieces.join('，')}。${note}`;
}

function chinesePlaceName(place: string | undefined, city: string | undefined): string {
  const inBrackets = place ? /[（(]([\u4e00-\u9fff]+)[)）]/.exec(place)?.[1] : undefined;
  if (inBrackets) return inBrackets;
  if (city && /[\u4e00-\u9fff]/.test(city)) return city;
  const known = lookUpPlace((place ?? city ?? '').split(/[,，(]/)[0] ?? '');
  return known?.zh ?? place ?? city ?? '当地';
}
