import type { RetryNotice, RetryReason } from './retry-notice.ts';
import { classifyProblem, problemFromBody, type Problem } from './errors/provider-errors.ts';
import { plainTextContent } from './plain-text-content.ts';
import { ProviderFault } from './errors/provider-fault.ts';
import { DEFAULT_STREAM_LIMITS, openEventStream, type StreamLimits } from './stream-guard.ts';

export interface GuardedFetchOptions {
  /** Extra tries for errors the table calls retryable (throttling, 5xx, a refused connection). */
  maxRetries: number;
  fetch?: typeof globalThis.fetch;
  /** First backoff when the server gives no `retry-after`; doubled on each try. */
  baseDelayMs?: number;
  limits?: StreamLimits;
  /** Told before each wait for another try (the UI shows it); a callback that throws is ignored. */
  onRetry?: (retry: RetryNotice) => void;
}

/** A `retry-after` longer than this is not waited for: the user is told instead. */
const MAX_WAIT_MS = 60_000;

/** The header on a failed response that tells `describeModelError` how many tries it took. */
const ATTEMPTS_HEADER = 'x-sylvan-attempts';

/**
 * The fetch every model request goes through. It owns retrying — the SDK's own retries are off,
 * because they decide by status alone (a 429 `insufficient_quota` is not worth a second try, a
 * throttling frame inside a 200 is) — and it reads a 200 before the SDK does, so a body that is
 * not a stream, or an error frame, becomes one `ProviderFault` with a line from the table.
 */
export function guardedFetch(options: GuardedFetchOptions): typeof globalThis.fetch {
  const base = options.fetch ?? globalThis.fetch;
  const baseDelay = options.baseDelayMs ?? 1000;
  const limits = options.limits ?? DEFAULT_STREAM_LIMITS;

  return async (input, given) => {
    const init = typeof given?.body === 'string' ? { ...given, body: plainTextContent(given.body) } : given;
    const signal = init?.signal ?? undefined;
    const wantsStream = typeof init?.body === 'string' && /"stream"\s*:\s*true/.test(init.body);
    /** Says why and for how long, then waits; the turn's signal ends the wait at once. */
    const retryAfter = (attempt: number, delayMs: number, reason: RetryReason, status?: number): Promise<void> => {
      try {
        options.onRetry?.({ attempt, maxRetries: options.maxRetries, delayMs, reason, ...(status !== undefined && status !== 200 && { status }) });
      } catch {
        // Showing a retry must never stop it.
      }
      return wait(delayMs, signal);
    };
    for (let attempt = 1; ; attempt++) {
      const canRetry = attempt <= options.maxRetries;
      let response: Response;
      try {
        response = await base(input, init);
      } catch (error) {
        if (signal?.aborted || isAbort(error)) throw error;
        if (!canRetry) throw attempt > 1 ? new ProviderFault({}, attempt, { cause: error }) : error;
        await retryAfter(attempt, backoff(baseDelay, attempt), 'network');
        continue;
      }

      if (!response.ok) {
        const body = await readText(response);
        const problem = problemFromBody(response.status, body) ?? { status: response.status };
        problem.status = response.status;
        const delay = canRetry && classifyProblem(problem).retry ? retryDelay(response.headers, baseDelay, attempt) : undefined;
        if (delay !== undefined) {
          await retryAfter(attempt, delay, reasonOf(problem), response.status);
          continue;
        }
        const headers = new Headers(response.headers);
        headers.set(ATTEMPTS_HEADER, String(attempt));
        headers.delete('content-encoding');
        headers.delete('content-length');
        return new Response(body, { status: response.status, statusText: response.statusText, headers });
      }
      if (!wantsStream) return response;

      const opening = await openEventStream(response.body, limits, attempt);
      if (opening.kind === 'stream') {
        const headers = new Headers(response.headers);
        headers.delete('content-encoding');
        headers.delete('content-length');
        return new Response(opening.body, { status: response.status, statusText: response.statusText, headers });
      }
      const delay = canRetry && classifyProblem(opening.problem).retry ? retryDelay(response.headers, baseDelay, attempt) : undefined;
      if (delay !== undefined) {
        await retryAfter(attempt, delay, reasonOf(opening.problem), opening.problem.status);
        continue;
      }
      throw new ProviderFault(opening.problem, attempt);
    }
  };
}

/** Only throttling, server faults and streams cut short before any answer are retried (see RETRIED in provider-errors.ts). */
function reasonOf(problem: Problem): RetryReason {
  if (problem.fault === 'cut-early') return 'network';
  return classifyProblem(problem).kind === 'throttled' ? 'rate-limited' : 'server-error';
}

const isAbort = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

function backoff(baseDelay: number, attempt: number): number {
  return Math.min(baseDelay * 2 ** (attempt - 1), 20_000);
}

/** `retry-after-ms`, `retry-after` (seconds or a date), else exponential backoff; undefined when too long to wait. */
export function retryDelay(headers: Headers, baseDelay: number, attempt: number, now = Date.now()): number | undefined {
  const milliseconds = Number(headers.get('retry-after-ms'));
  const after = headers.get('retry-after');
  let delay: number;
  if (headers.has('retry-after-ms') && Number.isFinite(milliseconds) && milliseconds >= 0) delay = milliseconds;
  else if (after !== null && /^\s*\d+(\.\d+)?\s*$/.test(after)) delay = Number(after) * 1000;
  else if (after !== null && !Number.isNaN(Date.parse(after))) delay = Math.max(0, Date.parse(after) - now);
  else delay = backoff(baseDelay, attempt);
  return delay > MAX_WAIT_MS ? undefined : delay;
}

async function readText(response: Response): Promise<string> {
  try {
    const text = await response.text();
    return text.length > 1024 * 1024 ? text.slice(0, 1024 * 1024) : text;
  } catch {
    return '';
  }
}

function wait(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
