/**
 * The web tools' settings, read from the environment (or `.env`) by `loadConfig`. Kept light: no
 * network code here, so the CLI can parse it before the prompt.
 */

export type SearchBackendName = 'tavily' | 'brave' | 'searxng' | 'sample' | 'dashscope' | 'off';

const SEARCH_BACKENDS: readonly SearchBackendName[] = ['tavily', 'brave', 'searxng', 'sample', 'dashscope', 'off'];

export interface SearchConfig {
  /** Which backend answers `web_search`; `dashscope` and `off` offer no tool. */
  backend: SearchBackendName;
  tavilyKey?: string;
  braveKey?: string;
  /** A SearXNG instance's base URL, e.g. http://localhost:8888 (its JSON API must be on). */
  searxngUrl?: string;
  /** Base URLs (the API paths are added); the variables exist so tests can use loopback servers. */
  tavilyBaseUrl: string;
  braveBaseUrl: string;
  /** web_fetch is offered unless the user said SYLVAN_SEARCH=off. */
  fetchEnabled: boolean;
  /** `SYLVAN_FETCH_ALLOW_PRIVATE=1`: web_fetch may reach loopback and private addresses (tests). */
  allowPrivateAddresses: boolean;
}

const TAVILY_BASE_URL = 'https://api.tavily.com';
const BRAVE_BASE_URL = 'https://api.search.brave.com';

type Environment = Record<string, string | undefined>;

const nonEmpty = (raw: string | undefined): string | undefined => (raw && raw.trim() !== '' ? raw.trim() : undefined);

function httpUrl(raw: string, name: string, fail: (message: string) => Error): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail(`${name} is not a valid URL: "${raw}". Example: http://localhost:8888`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(`${name} must start with http:// or https://, got "${raw}".`);
  return raw.replace(/\/+$/, '');
}

/**
 * `SYLVAN_SEARCH` picks the backend; without it the first key found wins (Tavily, Brave, SearXNG),
 * then `sample` for the mock model, else `off`. An explicit backend without what it needs is an
 * error (`fail` makes the caller's ConfigError: one line, exit code 2).
 *
 * `trusted` is the process environment alone: the endpoints a key is sent to and the private-address
 * override are read only from there, so a folder's `.env` can neither redirect a key nor lower the guard.
 */
export function parseSearchConfig(
  env: Environment,
  provider: string,
  fail: (message: string) => Error,
  trusted: Environment = env,
): SearchConfig {
  const tavilyKey = nonEmpty(env.TAVILY_API_KEY);
  const braveKey = nonEmpty(env.BRAVE_API_KEY);
  const searxngRaw = nonEmpty(env.SEARXNG_URL);
  const searxngUrl = searxngRaw === undefined ? undefined : httpUrl(searxngRaw, 'SEARXNG_URL', fail);
  const chosen = nonEmpty(env.SYLVAN_SEARCH)?.toLowerCase();
  if (chosen !== undefined && !SEARCH_BACKENDS.includes(chosen as SearchBackendName)) {
    throw fail(`SYLVAN_SEARCH must be one of ${SEARCH_BACKENDS.join(', ')}, got "${chosen}".`);
  }
  const backend: SearchBackendName =
    (chosen as SearchBackendName | undefined) ??
    (tavilyKey ? 'tavily' : braveKey ? 'brave' : searxngUrl ? 'searxng' : provider === 'mock' ? 'sample' : 'off');
  if (backend === 'tavily' && !tavilyKey) throw fail('SYLVAN_SEARCH=tavily needs TAVILY_API_KEY (get one at https://tavily.com).');
  if (backend === 'brave' && !braveKey) throw fail('SYLVAN_SEARCH=brave needs BRAVE_API_KEY (get one at https://brave.com/search/api/).');
  if (backend === 'searxng' && !searxngUrl) throw fail('SYLVAN_SEARCH=searxng needs SEARXNG_URL, e.g. http://localhost:8888.');
  if (backend === 'dashscope' && provider !== 'dashscope') {
    throw fail('SYLVAN_SEARCH=dashscope works only with the dashscope provider (DASHSCOPE_API_KEY).');
  }
  return {
    backend,
    tavilyKey,
    braveKey,
    searxngUrl,
    tavilyBaseUrl: httpUrl(nonEmpty(trusted.TAVILY_BASE_URL) ?? TAVILY_BASE_URL, 'TAVILY_BASE_URL', fail),
    braveBaseUrl: httpUrl(nonEmpty(trusted.BRAVE_BASE_URL) ?? BRAVE_BASE_URL, 'BRAVE_BASE_URL', fail),
    fetchEnabled: chosen !== 'off',
    allowPrivateAddresses: /^(1|true|yes|on)$/i.test(trusted.SYLVAN_FETCH_ALLOW_PRIVATE?.trim() ?? ''),
  };
}
