import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { closeAtEnd } from '../../helpers/served.ts';
import { startPageServer } from '../../helpers/page-server.ts';
import { createWebFetchTool, DEFAULT_MAX_DOWNLOAD_BYTES, MAX_FETCH_RESULT_CHARS } from '../../../src/tools/web/web-fetch.ts';
import type { AddressPolicy } from '../../../src/tools/web/address-guard.ts';

const pages = closeAtEnd(await startPageServer());
/** Loopback allowed (the test server), every other private range refused as without the override. */
const loopbackOnly: AddressPolicy = (address) =>
  address.startsWith('127.') || address === '::1' ? undefined : /^(?:10\.|169\.254\.|::ffff:)/.test(address) ? 'private or metadata (test policy)' : undefined;

async function fetchWith(tool: ReturnType<typeof createWebFetchTool>, url: string): Promise<{ text?: string; error?: string }> {
  try {
    const text = await tool.execute!({ url }, { toolCallId: 'call-1', messages: [], context: {} });
    return { text: String(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const withOverride = createWebFetchTool({ allowPrivateAddresses: true });
const guarded = createWebFetchTool({ policy: loopbackOnly });

describe('web_fetch', { timeout: 30_000 }, () => {
  test('an HTML page comes back as readable markdown without scripts, styles or navigation', async () => {
    const { text, error } = await fetchWith(withOverride, `${pages.url}/article`);
    assert.equal(error, undefined);
    assert.match(text ?? '', /^http:\/\/127\.0\.0\.1:\d+\/article — "Sylvan test article", HTML, \d+ bytes; main article as markdown:/);
    assert.match(text ?? '', /readable-marker-71c/);
    assert.match(text ?? '', /\[another page\]\(http:\/\/127\.0\.0\.1:\d+\/other\)/, 'links are made absolute');
    for (const marker of ['script-marker', 'trackingMarker', 'secret-style', 'nav-marker-about', 'footer-marker']) {
      assert.doesNotMatch(text ?? '', new RegExp(marker), `${marker} should be gone`);
    }
  });

  test('sends a plain User-Agent and no cookie or credentials, even after a Set-Cookie', async () => {
    await fetchWith(withOverride, `${pages.url}/article`);
    await fetchWith(withOverride, `${pages.url}/json`);
    const last = pages.requests.at(-1);
    assert.match(String(last?.headers['user-agent']), /^Sylvan\/[\d.]+ \(terminal chat agent; web_fetch\)$/);
    assert.equal(last?.headers.cookie, undefined);
    assert.equal(last?.headers.authorization, undefined);
    assert.match((await fetchWith(withOverride, `http://user:pw@127.0.0.1:${pages.port}/json`)).error ?? '', /does not send credentials/);
  });

  test('other text comes as it is; gzip is decoded; PDFs and images are described', async () => {
    assert.match((await fetchWith(withOverride, `${pages.url}/json`)).text ?? '', /application\/json, 27 bytes:\n\n\{"marker":"json-marker-33"\}/);
    assert.match((await fetchWith(withOverride, `${pages.url}/gzip`)).text ?? '', /readable-marker-71c/);
    assert.match((await fetchWith(withOverride, `${pages.url}/pdf`)).text ?? '', /is a PDF document, 17 bytes\.\n\nIts contents cannot be shown as text/);
    assert.match((await fetchWith(withOverride, `${pages.url}/png`)).text ?? '', /is a binary file \(image\/png\), 8 bytes/);
    assert.match((await fetchWith(withOverride, `${pages.url}/missing`)).error ?? '', /answered HTTP 404/);
  });

  test('a 50 MB page is cut at the 5 MB download cap, and the result at its character budget, both with a note', async () => {
    const { text } = await fetchWith(withOverride, `${pages.url}/huge`);
    assert.ok(text, 'the huge page gave no result');
    assert.ok(text.length <= MAX_FETCH_RESULT_CHARS, `the result is ${text.length} characters`);
    assert.match(text, /text\/plain, more than 5\.0 MB:/);
    assert.match(text, /the download stopped at the 5\.0 MB cap/);
    assert.match(text, /showing the first [\d,]+ of 5,242,880 characters; [\d,]+ left out/);
    assert.ok(pages.hugeBytesWritten() < 50 * 1024 * 1024, `the server wrote all ${pages.hugeBytesWritten()} bytes: the client did not stop reading`);
    assert.equal(DEFAULT_MAX_DOWNLOAD_BYTES, 5 * 1024 * 1024);
  });

  test('same-host redirects are followed (at most 5); the result says where it came from', async () => {
    assert.match((await fetchWith(withOverride, `${pages.url}/same-host`)).text ?? '', /\/article — .*\(redirected from http:\/\/127\.0\.0\.1:\d+\/same-host\)/);
    assert.match((await fetchWith(withOverride, `${pages.url}/loop/0`)).error ?? '', /redirected more than 5 times/);
    assert.equal(pages.requests.filter((request) => request.path.startsWith('/loop/')).length, 6);
  });

  test('a redirect to 169.254.169.254 is refused, even with the override, and nothing is fetched there', async () => {
    for (const path of ['/to-metadata', '/to-mapped']) {
      const { error } = await fetchWith(withOverride, `${pages.url}${path}`);
      assert.match(error ?? '', /refused .*metadata service \(169\.254\.169\.254\)/, path);
      assert.doesNotMatch(error ?? '', /call web_fetch again/, 'the model is not invited to try the metadata address');
    }
  });

  test('without the override, a redirect to a private address is refused', async () => {
    const { error } = await fetchWith(guarded, `${pages.url}/to-private`);
    assert.match(error ?? '', /redirected to http:\/\/10\.0\.0\.1\/admin\. web_fetch refused 10\.0\.0\.1: it is private/);
  });

  test('a redirect to another domain is not followed: the model is told to fetch the new URL, which needs its own approval', async () => {
    const before = pages.requests.length;
    const { error } = await fetchWith(guarded, `${pages.url}/to-localhost`);
    assert.match(error ?? '', /redirects to another domain: http:\/\/localhost:\d+\/article\. .*call web_fetch again with it; the user will be asked about the new domain/);
    assert.equal(pages.requests.length, before + 1, 'only the redirecting page was requested');
    assert.match((await fetchWith(guarded, `${pages.url}/to-file`)).error ?? '', /redirected to file:\/\/ which web_fetch does not follow/);
  });

  test('by default loopback is refused before any connection, and a name is checked after DNS', async () => {
    const strict = createWebFetchTool();
    const before = pages.requests.length;
    assert.match((await fetchWith(strict, `${pages.url}/article`)).error ?? '', /web_fetch refused 127\.0\.0\.1: it is loopback/);
    assert.match((await fetchWith(strict, `http://localhost:${pages.port}/article`)).error ?? '', /web_fetch refused localhost \((?:127\.0\.0\.1|::1)\): it is loopback/);
    assert.match((await fetchWith(strict, `http://[::ffff:127.0.0.1]:${pages.port}/article`)).error ?? '', /refused .*loopback/);
    assert.match((await fetchWith(strict, `http://2130706433:${pages.port}/article`)).error ?? '', /refused 127\.0\.0\.1/, 'a decimal IPv4 form');
    assert.equal(pages.requests.length, before, 'the server saw no request');
    assert.match((await fetchWith(strict, 'ftp://example.com/file')).error ?? '', /only http:\/\/ and https:\/\//);
    assert.match((await fetchWith(strict, 'not a url')).error ?? '', /is not a valid URL/);
  });

  test('a page that never answers ends at the timeout with a message', async () => {
    const { createServer } = await import('node:net');
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const quick = createWebFetchTool({ allowPrivateAddresses: true, timeoutMs: 300 });
      assert.match((await fetchWith(quick, `http://127.0.0.1:${port}/`)).error ?? '', /did not finish within 0\.3 s; web_fetch stopped/);
    } finally {
      silent.close();
    }
  });
});
