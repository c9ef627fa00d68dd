import type { SearchBackend, SearchResult } from './search-backend.ts';

interface SampleTopic {
  /** Every pattern must match the query. */
  matches: readonly RegExp[];
  description: string;
  results: readonly SearchResult[];
}

/**
 * Fixed results for the offline demo (the ReAct article's GDP question). Figures are rounded
 * public statistics, kept so the demo's arithmetic is meaningful, but they are never presented as
 * a live search: every result says it is sample data.
 */
const TOPICS: readonly SampleTopic[] = [
  {
    matches: [/GDP|国内生产总值|gross domestic product|经济总量/i, /中国|China|Chinese/i],
    description: "China's GDP in 2024",
    results: [
      {
        title: '2024 年中国 GDP 总量（示例数据 / sample）',
        url: 'https://data.worldbank.org/indicator/NY.GDP.MKTP.CD?locations=CN',
        date: '2025',
        snippet: '2024 年中国国内生产总值（GDP）约 18.7 万亿美元（现价美元）。China GDP 2024: about 18.7 trillion US dollars.',
      },
      {
        title: '2024 年国民经济和社会发展统计公报（示例数据 / sample）',
        url: 'https://www.stats.gov.cn/',
        date: '2025-02-28',
        snippet: '初步核算，全年国内生产总值 1349084 亿元（约 134.9 万亿元人民币），比上年增长 5.0%。',
      },
    ],
  },
  {
    matches: [/人口|population/i, /中国|China|Chinese/i],
    description: "China's population at the end of 2024",
    results: [
      {
        title: '2024 年末全国人口（示例数据 / sample）',
        url: 'https://www.stats.gov.cn/',
        date: '2025-01-17',
        snippet: '2024 年末全国人口 140828 万人（约 14.08 亿人），比上年末减少 139 万人。',
      },
    ],
  },
];

/** The topics the sample data covers, for the tool description and the no-match error. */
export function sampleTopics(): string {
  return TOPICS.map((topic) => topic.description).join('; ');
}

/** Built-in sample results: no network, a few fixed topics, clearly not live. */
export function createSampleBackend(): SearchBackend {
  return {
    label: 'sample data',
    live: false,
    async search(query, maxResults) {
      const topic = TOPICS.find((candidate) => candidate.matches.every((pattern) => pattern.test(query)));
      if (!topic) {
        throw new Error(
          `There are no sample search results for "${query}": the built-in sample data covers only ${sampleTopics()}. ` +
            'Live web search needs TAVILY_API_KEY, BRAVE_API_KEY or SEARXNG_URL. Tell the user this; do not invent results.',
        );
      }
      return topic.results.slice(0, maxResults);
    },
  };
}
