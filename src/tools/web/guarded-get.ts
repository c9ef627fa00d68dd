import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { BlockedAddressError, blockedMessage, guardedLookup, type AddressPolicy } from './address-guard.ts';

/** A plain, identifying User-Agent: who is asking, nothing about the user. */
const USER_AGENT = 'Sylvan/0.1 (terminal chat agent; web_fetch)';

export interface HopResult {
  status: number;
  /** Lower-cased header names; repeated ones joined. */
  headers: Record<string, string>;
  /** The decoded body, at most `maxBytes`. */
  body: Buffer;
  /** True when the body went past `maxBytes` and the rest was not read. */
  truncated: boolean;
}

export interface HopOptions {
  policy: AddressPolicy;
  maxBytes: number;
  signal: AbortSignal;
}

/**
 * One GET, no redirect following: the host is checked (an IP literal here, a name after DNS by
 * `guardedLookup`, which also pins the connection to the checked address). No cookies, no
 * credentials, no keep-alive pool. The body is decompressed and read up to `maxBytes` (the cap
 * counts decoded bytes, so a small compressed bomb cannot swell past it); redirects come back
 * without a body.
 */
export async function guardedGet(url: URL, options: HopOptions): Promise<HopResult> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const reason = options.policy(host);
    if (reason) throw new BlockedAddressError(blockedMessage(host, host, reason));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(url, {
      method: 'GET',
      agent: false,
      lookup: guardedLookup(options.policy) as never,
      signal: options.signal,
      headers: {
        'user-agent': USER_AGENT,
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    outgoing.once('response', resolve);
    outgoing.once('error', reject);
    outgoing.end();
  });
  const headers = flatten(response);
  if (response.statusCode !== undefined && response.statusCode >= 300 && response.statusCode < 400) {
    response.destroy();
    return { status: response.statusCode, headers, body: Buffer.alloc(0), truncated: false };
  }
  const { body, truncated } = await readCapped(decoded(response, headers['content-encoding']), options.maxBytes);
  if (truncated) response.destroy();
  return { status: response.statusCode ?? 0, headers, body, truncated };
}

function decoded(response: IncomingMessage, encoding: string | undefined): Readable {
  const name = encoding?.trim().toLowerCase();
  const decoder = name === 'gzip' || name === 'x-gzip' ? createGunzip() : name === 'deflate' ? createInflate() : name === 'br' ? createBrotliDecompress() : undefined;
  if (!decoder) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

async function readCapped(stream: Readable, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    if (total + buffer.length > maxBytes) {
      chunks.push(buffer.subarray(0, maxBytes - total));
      stream.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(buffer);
    total += buffer.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

function flatten(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
