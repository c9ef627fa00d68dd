import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Reply } from './dashscope-server.ts';
import { textChunk } from './fixture-replies.ts';

/** Other providers' error bodies (test/fixtures/provider-errors/, sources in its README). */
export interface ProviderErrorFixture {
  /** 200: the body is the first frame of a 200 event stream. */
  status: number;
  body: Record<string, unknown>;
}

const fixtures = JSON.parse(
  readFileSync(fileURLToPath(new URL('../fixtures/provider-errors/errors.json', import.meta.url)), 'utf8'),
) as Record<string, ProviderErrorFixture>;

export function providerErrorFixture(name: string): ProviderErrorFixture {
  const found = fixtures[name];
  if (!found) throw new Error(`no fixture "${name}" in test/fixtures/provider-errors/errors.json`);
  return found;
}

/** The server's own message in a fixture, wherever its shape keeps it. */
export function fixtureMessage(name: string): string {
  const { body } = providerErrorFixture(name);
  const inner = body.error as { message?: string } | undefined;
  return inner?.message ?? (body.message as string);
}

/**
 * The fixture as the server sent it: its HTTP status and body, or (status 200) a 200 stream whose
 * first frame is the error, after `textBefore` when given. `retry-after: 0`, so a retry costs no time.
 */
export function providerErrorReply(name: string, textBefore?: string): Reply {
  const { status, body } = providerErrorFixture(name);
  const headers = { 'retry-after': '0' };
  if (status !== 200) return { kind: 'http-error', status, body, headers };
  return { kind: 'raw', chunks: [...(textBefore ? [textChunk(textBefore)] : []), body], headers };
}
