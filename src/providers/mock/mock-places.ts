/** A city the mock model recognises by name, in either language. */
export type KnownPlace = { zh: string; en: string; aliases: readonly string[]; timeZone: string };

const KNOWN_PLACES: readonly KnownPlace[] = [
  { zh: '北京', en: 'Beijing', aliases: ['Peking'], timeZone: 'Asia/Shanghai' },
  { zh: '上海', en: 'Shanghai', aliases: [], timeZone: 'Asia/Shanghai' },
  { zh: '广州', en: 'Guangzhou', aliases: ['Canton'], timeZone: 'Asia/Shanghai' },
  { zh: '深圳', en: 'Shenzhen', aliases: [], timeZone: 'Asia/Shanghai' },
  { zh: '杭州', en: 'Hangzhou', aliases: [], timeZone: 'Asia/Shanghai' },
  { zh: '成都', en: 'Chengdu', aliases: [], timeZone: 'Asia/Shanghai' },
  { zh: '南京', en: 'Nanjing', aliases: [], timeZone: 'Asia/Shanghai' },
  { zh: '武汉', en: 'Wuhan', aliases: [], timeZone: 'Asia/Shanghai' },
  { zh: '西安', en: "Xi'an", aliases: ['Xian'], timeZone: 'Asia/Shanghai' },
  { zh: '重庆', en: 'Chongqing', aliases: [], timeZone: 'Asia/Shanghai' },
  { zh: '天津', en: 'Tianjin', aliases: [], timeZone: 'Asia/Shanghai' },
  { zh: '苏州', en: 'Suzhou', aliases: [], timeZone: 'Asia/Shanghai' },
  { zh: '香港', en: 'Hong Kong', aliases: [], timeZone: 'Asia/Hong_Kong' },
  { zh: '台北', en: 'Taipei', aliases: [], timeZone: 'Asia/Taipei' },
  { zh: '东京', en: 'Tokyo', aliases: [], timeZone: 'Asia/Tokyo' },
  { zh: '大阪', en: 'Osaka', aliases: [], timeZone: 'Asia/Tokyo' },
  { zh: '首尔', en: 'Seoul', aliases: [], timeZone: 'Asia/Seoul' },
  { zh: '新加坡', en: 'Singapore', aliases: [], timeZone: 'Asia/Singapore' },
  { zh: '悉尼', en: 'Sydney', aliases: [], timeZone: 'Australia/Sydney' },
  { zh: '纽约', en: 'New York', aliases: ['NYC'], timeZone: 'America/New_York' },
  { zh: '旧金山', en: 'San Francisco', aliases: ['SF'], timeZone: 'America/Los_Angeles' },
  { zh: '洛杉矶', en: 'Los Angeles', aliases: ['LA'], timeZone: 'America/Los_Angeles' },
  { zh: '西雅图', en: 'Seattle', aliases: [], timeZone: 'America/Los_Angeles' },
  { zh: '芝加哥', en: 'Chicago', aliases: [], timeZone: 'America/Chicago' },
  { zh: '多伦多', en: 'Toronto', aliases: [], timeZone: 'America/Toronto' },
  { zh: '伦敦', en: 'London', aliases: [], timeZone: 'Europe/London' },
  { zh: '巴黎', en: 'Paris', aliases: [], timeZone: 'Europe/Paris' },
  { zh: '柏林', en: 'Berlin', aliases: [], timeZone: 'Europe/Berlin' },
  { zh: '莫斯科', en: 'Moscow', aliases: [], timeZone: 'Europe/Moscow' },
];

/** A known place mentioned in a text: its name in the script the user used, and where it was found. */
export type PlaceMention = { name: string; index: number; place: KnownPlace };

/** Known cities named in the text, in the order they appear, each once. */
export function findKnownPlaces(text: string): PlaceMention[] {
  const mentions: PlaceMention[] = [];
  for (const place of KNOWN_PLACES) {
    let best: PlaceMention | undefined;
    for (const name of [place.zh, place.en, ...place.aliases]) {
      const index = findName(text, name);
      if (index >= 0 && (best === undefined || index < best.index)) {
        // The weather tool gets the canonical spelling ("nyc" → New York), in the script the user wrote in.
        best = { name: name === place.zh ? place.zh : place.en, index, place };
      }
    }
    if (best) mentions.push(best);
  }
  return mentions.sort((left, right) => left.index - right.index);
}

/** The known place with this name in either language, if any. */
export function lookUpPlace(name: string): KnownPlace | undefined {
  const wanted = name.trim().toLowerCase();
  return KNOWN_PLACES.find((place) =>
    [place.zh, place.en, ...place.aliases].some((candidate) => candidate.toLowerCase() === wanted),
  );
}

function findName(text: string, name: string): number {
  if (/[\u4e00-\u9fff]/.test(name)) return text.indexOf(name);
  // A cheap test first: compiling a \p{L} pattern per place and message cost every mock turn ~15 ms.
  if (!text.toLowerCase().includes(name.toLowerCase())) return -1;
  // Latin names must stand alone, so "LA" does not match inside "PLAN"; short aliases must keep their capitals.
  const flags = name.length <= 3 ? 'u' : 'iu';
  const match = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name)}(?![\\p{L}\\p{N}])`, flags).exec(text);
  return match ? match.index : -1;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const CHINESE_FILLER_PREFIX =
  /^(?:请问|请|麻烦|那么|那|帮我|给我|替我|帮忙|我想知道|我想|想知道|查一下|查查|查询|查|看一下|看看|说说|问一下|问问|告诉我|一下|今天|明天|现在|目前)+/;
const CHINESE_NOT_A_PLACE = /^(?:今天|明天|后天|现在|目前|最近|这几天|那边|这边|这里|那里|外面|本地|当地|我们这|你那|今天的|明天的)$/;

/**
 * Unknown city names in a Chinese weather question ("拉萨的天气" → 拉萨, "拉萨和大理天气" → 拉萨, 大理),
 * taken from the words just before the weather word.
 */
export function extractChineseWeatherPlaces(text: string): string[] {
  const match = /([\u4e00-\u9fff、和与跟及]+?)(?:的)?(?:今天|明天|现在|目前|这几天|最近)?(?:的)?(?:天气|气温|温度)/.exec(text);
  if (!match?.[1]) return [];
  return match[1]
    .split(/[、和与跟及]/)
    .map((part) => part.replace(CHINESE_FILLER_PREFIX, '').replace(/的$/, ''))
    .filter((part) => part.length >= 2 && part.length <= 8 && !CHINESE_NOT_A_PLACE.test(part));
}

const ENGLISH_STOP_WORDS = new Set(['today', 'tomorrow', 'now', 'right', 'this', 'tonight', 'currently', 'like', 'there', 'here', 'the', 'my', 'our', 'general', 'weather', 'and', 'or', 'what', 'how', 'is']);

/** Unknown city names in an English weather question ("weather in Reykjavik today" → Reykjavik). */
export function extractEnglishWeatherPlaces(text: string): string[] {
  // After a weather word any spelling goes ("weather in reykjavik"); elsewhere only a capitalised name does.
  const match =
    /\b(?:weather|temperature|forecast|rain(?:ing)?|snow(?:ing)?|hot|cold)\b[^.?!]*?\b(?:in|for|at)\s+([A-Za-z][A-Za-z.'-]*(?:\s+[A-Za-z][A-Za-z.'-]*){0,2})/i.exec(text) ??
    /\b(?:in|for|at)\s+([A-Z][A-Za-z.'-]*(?:\s+[A-Za-z][A-Za-z.'-]*){0,2})/.exec(text);
  if (!match?.[1]) return [];
  const words: string[] = [];
  for (const word of match[1].split(/\s+/)) {
    if (ENGLISH_STOP_WORDS.has(word.toLowerCase())) break;
    words.push(word);
  }
  const name = words.join(' ').replace(/[.'-]+$/, '');
  return name.length >= 2 ? [name] : [];
}
