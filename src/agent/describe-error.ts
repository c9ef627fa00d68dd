/** What the error line needs to know about where the request went. */
export interface ProviderContext {
  /** "DashScope", "the OpenAI-compatible server", "the mock model". */
  label: string;
  model: string;
  baseURL?: string;
  /** The variable that holds the key, named in the advice ("Check DASHSCOPE_API_KEY in .env"). */
  keyVariable?: string;
  /** The variable that sets the base URL. */
  baseUrlVariable?: string;
}

interface ErrorLike {
  name?: string;
  message?: string;
  statusCode?: number;
  url?: string;
  responseBody?: string;
  cause?: unknown;
  lastError?: unknown;
  errors?: unknown[];
  code?: string;
}

/** Reads only what is safe to read: odd values (a number as message, no prototype) never throw. */
function asErrorLike(value: unknown): ErrorLike {
  if (value === null || typeof value !== 'object') return { message: safeString(value) };
  const candidate = value as Record<string, unknown>;
  return {
    name: typeof candidate.name === 'string' ? candidate.name : undefined,
    message: typeof candidate.message === 'string' ? candidate.message : undefined,
    statusCode: typeof candidate.statusCode === 'number' ? candidate.statusCode : undefined,
    url: typeof candidate.url === 'string' ? candidate.url : undefined,
    responseBody: typeof candidate.responseBody === 'string' ? candidate.responseBody : undefined,
    cause: candidate.cause,
    lastError: candidate.lastError,
    errors: Array.isArray(candidate.errors) ? candidate.errors : undefined,
    code: typeof candidate.code === 'string' ? candidate.code : undefined,
  };
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return 'unknown error';
  }
}

/** The innermost error worth describing: the last try of a retry, the cause of a failed fetch. */
function unwrap(error: unknown): { error: ErrorLike; attempts: number } {
  const outer = asErrorLike(error);
  if (outer.name === 'AI_RetryError' && outer.lastError !== undefined) {
    return { error: asErrorLike(outer.lastError), attempts: outer.errors?.length ?? 1 };
  }
  return { error: outer, attempts: 1 };
}

/** The error and its causes, outermost first (undici nests the socket error two levels down). */
function causeChain(error: ErrorLike): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const candidate = asErrorLike(current);
    chain.push(candidate);
    current = candidate.cause;
  }
  return chain;
}

function networkCode(chain: ErrorLike[]): string | undefined {
  return chain.map((error) => error.code).find((code): code is string => typeof code === 'string' && /^E[A-Z_]+$/.test(code));
}

/** A connection that broke after the answer had started: undici says "terminated" or UND_ERR_SOCKET. */
function wasCutOff(chain: ErrorLike[]): boolean {
  return chain.some(
    (error) =>
      error.code === 'UND_ERR_SOCKET' ||
      error.code === 'ECONNRESET' ||
      /terminated|premature close|socket hang up|other side closed/i.test(error.message ?? ''),
  );
}

/** The server's own words, when its error body says something (DashScope and OpenAI: `error.message`). */
function serverMessage(error: ErrorLike): string | undefined {
  if (!error.responseBody) return undefined;
  try {
    const parsed = JSON.parse(error.responseBody) as { error?: { message?: unknown }; message?: unknown };
    const text = parsed.error?.message ?? parsed.message;
    return typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One line that says what happened and what to do, for any failure of a model request.
 * Never throws.
 */
export function describeModelError(error: unknown, provider: ProviderContext): string {
  const { error: inner, attempts } = unwrap(error);
  const tries = attempts > 1 ? ` after ${attempts} tries` : '';
  const where = provider.baseURL ?? provider.label;
  const said = serverMessage(inner);
  const saidSuffix = said ? ` (${said})` : '';
  // A cut stream arrives as "Failed to process successful response" with status 200: not an HTTP error.
  const status = inner.statusCode !== undefined && inner.statusCode >= 400 ? inner.statusCode : undefined;
  const chain = causeChain(inner);

  if (status === 401 || status === 403) {
    const variable = provider.keyVariable ? `Check ${provider.keyVariable} in your environment or .env.` : 'Check the API key.';
    return `${provider.label} rejected the API key (${status})${saidSuffix}. ${variable}`;
  }
  if (status === 404) {
    const variable = provider.baseUrlVariable ? ` and ${provider.baseUrlVariable}` : '';
    return `${where} answered 404 Not Found${saidSuffix}. Check the model name "${provider.model}"${variable}.`;
  }
  if (status === 429) {
    return `${provider.label} is rate-limiting requests (429)${tries}${saidSuffix}. Wait a minute and try again, or check your quota.`;
  }
  if (status !== undefined && status >= 500) {
    return `${provider.label} failed with ${status}${tries}${saidSuffix}. This is on the server's side; try again in a moment.`;
  }
  if (status === 400) {
    return `${provider.label} refused the request (400)${saidSuffix}. Try /clear to start a fresh conversation if this repeats.`;
  }
  if (status !== undefined) {
    return `${provider.label} answered ${status}${tries}${saidSuffix}.`;
  }

  if (wasCutOff(chain)) return `The connection to ${where} was cut off in the middle of the answer. Try again.`;
  const code = networkCode(chain);
  const variable = provider.baseUrlVariable ? ` Check ${provider.baseUrlVariable} and your network.` : ' Check your network.';
  if (code === 'ECONNREFUSED') return `Could not connect to ${where} (connection refused)${tries}.${variable}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Could not resolve the host of ${where} (${code})${tries}.${variable}`;
  if (code) return `The connection to ${where} failed (${code})${tries}.${variable}`;
  if (/Cannot connect to API|fetch failed/i.test(inner.message ?? '')) {
    return `Could not connect to ${where}${tries}.${variable}`;
  }
  const message = (inner.message ?? '').replace(/\s+/g, ' ').trim().slice(0, 300);
  return message ? `The model request failed: ${message}` : 'The model request failed for an unknown reason. Run with SYLVAN_DEBUG=1 for details.';
}

/** The stack for SYLVAN_DEBUG=1. */
export function debugDetail(error: unknown): string | undefined {
  if (error instanceof Error) return error.stack ?? error.message;
  return undefined;
}
