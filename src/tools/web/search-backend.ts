/** One search result, whatever the backend: what the model reads as one numbered entry. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  /** As the backend gives it (an ISO date, "2 days ago"); absent when unknown. */
  date?: string;
}

/** What every `web_search` backend offers; one file per backend implements it. */
export interface SearchBackend {
  /** Named in results and errors, e.g. "Tavily". */
  readonly label: string;
  /** False only for the built-in sample data, which the result marks as not live. */
  readonly live: boolean;
  search(query: string, maxResults: number, signal?: AbortSignal): Promise<SearchResult[]>;
}

export interface BackendHttpOptions {
  readonly fetch: typeof globalThis.fetch;
  /** The whole request, answer included. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** Names the variable to fix when the service rejects its key; undefined for keyless backends. */
export interface BackendIdentity {
  readonly label: string;
  readonly keyVariable?: string;
  readonly urlVariable?: string;
}

const DO_NOT_INVENT = 'Tell the user web search is unavailable and why; do not invent results.';

/**
 * Sends one request to a search service and returns its parsed JSON. Every failure — refused
 * connection, timeout, 401/403, 429, any other status, a body that is not JSON — becomes an Error
 * whose message tells the model what happened and what the user can do. The caller's abort is
 * rethrown unchanged.
 */
export async function requestJson(identity: BackendIdentity, url: URL, init: RequestInit, options: BackendHttpOptions): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  let body: string;
  try {
    // A keyed service never redirects; following one could hand the key to another host.
    response = await options.fetch(url, { ...init, signal, redirect: identity.keyVariable ? 'error' : 'follow', credentials: 'omit' });
    body = await response.text();
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) {
      throw new Error(`${identity.label} did not answer within ${Math.round(options.timeoutMs / 100) / 10} s. ${DO_NOT_INVENT}`);
    }
    const where = identity.urlVariable ? ` (check ${identity.urlVariable})` : '';
    throw new Error(`Could not reach ${identity.label} at ${url.origin}${where}: ${(error as Error).message}. ${DO_NOT_INVENT}`);
  }
  if (response.status === 401 || response.status === 403) {
    const fix = identity.keyVariable ? `check ${identity.keyVariable}` : 'check that the instance allows the JSON API (format=json)';
    throw new Error(`${identity.label} refused the request (HTTP ${response.status}): ${fix}. ${DO_NOT_INVENT}`);
  }
  if (response.status === 429) {
    throw new Error(`${identity.label} says too many requests or the plan's quota is used up (HTTP 429); try again later. ${DO_NOT_INVENT}`);
  }
  if (!response.ok) {
    throw new Error(`${identity.label} failed with HTTP ${response.status}${statusDetail(body)}. ${DO_NOT_INVENT}`);
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new Error(`${identity.label} answered with something that is not JSON (${body.length} characters). ${DO_NOT_INVENT}`);
  }
}

/** A short, single-line hint from an error body, if it has one. */
function statusDetail(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim().slice(0, 160);
  return line === '' ? '' : `: ${line}`;
}

/** The error for a JSON answer that is not shaped as the service documents. */
export function unexpectedShape(label: string, detail: string): Error {
  return new Error(`${label} answered in an unexpected shape (${detail}). ${DO_NOT_INVENT}`);
}
