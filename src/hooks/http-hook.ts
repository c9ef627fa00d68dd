import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, type AddressPolicy } from '../tools/web/address-guard.ts';
import type { HookRun } from './hook-types.ts';

const MAX_BODY_BYTES = 256 * 1024;

/** An `http` hook reaches this machine only: a hook file cannot make Sylvan send the session's calls elsewhere. */
const loopbackOnly: AddressPolicy = (address) => {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4 && bare.startsWith('127.')) return undefined;
  if (bare === '::1') return undefined;
  return 'not a loopback address';
};

export interface HttpHookOptions {
  url: string;
  headers?: Record<string, string>;
  input: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * POSTs the event's JSON to an `http` hook, through the address guard `web_fetch` uses with a
 * policy that admits loopback addresses only; no redirect is followed. A 2xx answer's body is read
 * like a command's stdout after exit 0; any other status is a non-blocking error. Never throws.
 */
export function postHook(options: HttpHookOptions): Promise<Pick<HookRun, 'exit' | 'stdout' | 'stderr'>> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      return resolve({ exit: 'failed', stdout: '', stderr: `not a URL: ${options.url}` });
    }
    // An IP literal skips the lookup: checked here instead.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && loopbackOnly(literal)) {
      return resolve({ exit: 'failed', stdout: '', stderr: `${url.hostname} is not a loopback address; http hooks reach this machine only` });
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: Pick<HookRun, 'exit' | 'stdout' | 'stderr'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(options.input) },
        lookup: guardedLookup(loopbackOnly) as never,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY_BYTES);
          const status = response.statusCode ?? 0;
          finish(status >= 200 && status < 300 ? { exit: 0, stdout: body, stderr: '' } : { exit: 1, stdout: '', stderr: `HTTP ${status}` });
        });
        response.on('error', (error) => finish({ exit: 'failed', stdout: '', stderr: error.message }));
      },
    );
    timer = setTimeout(() => {
      request.destroy();
      finish({ exit: 'timed-out', stdout: '', stderr: '' });
    }, options.timeoutMs);
    const onAbort = () => {
      request.destroy();
      finish({ exit: 'interrupted', stdout: '', stderr: '' });
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => finish({ exit: 'failed', stdout: '', stderr: error.message }));
    request.end(options.input);
  });
}
