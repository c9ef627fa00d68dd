import { problemFromBody, problemFromValue, problemLine, type Problem, type ProviderContext } from './provider-errors.ts';
import { isProviderFault } from './provider-fault.ts';

interface ErrorLike {
  name?: string;
  message?: string;
  statusCode?: number;
  url?: string;
  responseBody?: string;
  responseHeaders?: Record<string, string>;
  type?: string;
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
    responseHeaders:
      candidate.responseHeaders !== null && typeof candidate.responseHeaders === 'object'
        ? (candidate.responseHeaders as Record<string, string>)
        : undefined,
    type: typeof candidate.type === 'string' ? candidate.type : undefined,
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
function unwrap(error: unknown): { error: ErrorLike; attempts: number; raw: unknown } {
  const outer = asErrorLike(error);
  if (outer.name === 'AI_RetryError' && outer.lastError !== undefined) {
    return { error: asErrorLike(outer.lastError), attempts: outer.errors?.length ?? 1, raw: outer.lastError };
  }
  return { error: outer, attempts: 1, raw: error };
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

/** How many times the request was sent: the SDK's retry count, our fetch's header or fault. */
function attemptsOf(sdkAttempts: number, error: ErrorLike, rawChain: unknown[]): number {
  const header = Number(error.responseHeaders?.['x-sylvan-attempts']);
  const fault = rawChain.find(isProviderFault);
  return Math.max(sdkAttempts, Number.isInteger(header) ? header : 1, fault?.attempts ?? 1);
}

/**
 * What the error said about itself: our fetch's fault, an HTTP error with its JSON body, or an
 * error object from inside the stream (`{ message, code, type }`).
 */
function problemOf(error: ErrorLike, rawChain: unknown[]): Problem | undefined {
  const fault = rawChain.find(isProviderFault);
  if (fault && (fault.problem.fault || fault.problem.status !== undefined || fault.problem.code || fault.problem.message)) {
    return fault.problem;
  }
  // An error frame the provider could not parse as a chunk: its `value` is the frame.
  const frame = rawChain.find(
    (link): link is { value: unknown } => link instanceof Error && link.name === 'AI_TypeValidationError' && 'value' in link,
  );
  const fromFrame = frame ? problemFromValue(200, frame.value) : undefined;
  if (fromFrame) return fromFrame;
  // An error frame the provider did parse (after text was shown): `ai` wraps it, the frame kept as `data`.
  const wrapped = rawChain.find(
    (link): link is { data: unknown } => link instanceof Error && link.name === 'AI_StreamProviderError' && 'data' in link,
  );
  const fromWrapped = wrapped ? problemFromValue(200, wrapped.data) : undefined;
  if (fromWrapped) return fromWrapped;
  const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : undefined;
  if (status !== undefined) return { ...(error.responseBody ? problemFromBody(status, error.responseBody) : undefined), status };
  if (error.name === undefined && (error.code !== undefined || error.type !== undefined) && !/^E[A-Z_]+$/.test(error.code ?? '')) {
    return problemFromValue(undefined, { error: { code: error.code, type: error.type, message: error.message } });
  }
  return undefined;
}

function rawCauses(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * One line that says what happened and what to do, for any failure of a model request, worded
 * by the table in providers/provider-errors.ts wherever the error arrived. Never throws.
 */
export function describeModelError(error: unknown, provider: ProviderContext): string {
  try {
    return describe(error, provider);
  } catch {
    return 'The model request failed for an unknown reason. Run with SYLVAN_DEBUG=1 for details.';
  }
}

function describe(error: unknown, provider: ProviderContext): string {
  const { error: inner, attempts: sdkAttempts, raw } = unwrap(error);
  const rawChain = rawCauses(raw);
  const attempts = attemptsOf(sdkAttempts, inner, rawChain);
  const tries = attempts > 1 ? ` after ${attempts} tries` : '';
  const where = provider.baseURL ?? provider.label;

  const problem = problemOf(inner, rawChain);
  if (problem) return problemLine(problem, { ...provider, attempts });

  const chain = causeChain(inner);
  if (wasCutOff(chain)) return `The connection to ${where} was cut off in the middle of the answer. Try again.`;
  const code = networkCode(chain);
  const variable = provider.baseUrlVariable ? ` Check ${provider.baseUrlVariable} and your network.` : ' Check your network.';
  if (code === 'ECONNREFUSED') return `Could not connect to ${where} (connection refused)${tries}.${variable}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Could not resolve the host of ${where} (${code})${tries}.${variable}`;
  if (code) return `The connection to ${where} failed (${code})${tries}.${variable}`;
  if (chain.some((link) => /Cannot connect to API|fetch failed/i.test(link.message ?? ''))) {
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
