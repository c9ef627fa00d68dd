import { join } from 'node:path';

/** Ids are file names: letters, digits, '-', '_' and '.', no '..', so an id can never leave the sessions folder. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** True when `id` is safe to use as a session file name. */
export function isValidSessionId(id: string): boolean {
  return SESSION_ID_PATTERN.test(id) && !id.includes('..');
}

/** Throws a readable Error when `id` is not a valid session id (path separators, '..', odd characters). */
function assertValidSessionId(id: string): void {
  if (!isValidSessionId(id)) {
    throw new Error(`"${id}" is not a session id. Ids look like 2026-11-30T07-13-53-123Z-ab12; /resume lists them.`);
  }
}

/**
 * A new id that sorts by creation time and stays readable: the UTC time with ':' and '.' replaced by
 * '-', plus four random hex digits so two sessions started in the same millisecond do not collide.
 */
export function createSessionId(now: Date): string {
  // The global Web Crypto loads on first use; importing node:crypto would load it before the prompt.
  const random = Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(2))).toString('hex');
  return `${now.toISOString().replace(/[:.]/g, '-')}-${random}`;
}

/** `$SYLVAN_HOME/sessions`. */
export function sessionsDirectory(home: string): string {
  return join(home, 'sessions');
}

/** `$SYLVAN_HOME/sessions/<id>.jsonl`; throws on an invalid id. */
export function sessionPath(home: string, id: string): string {
  assertValidSessionId(id);
  return join(sessionsDirectory(home), `${id}.jsonl`);
}

/** `$SYLVAN_HOME/sessions/<id>/`: what a session keeps beside its transcript (long tool outputs); throws on an invalid id. */
export function sessionFolder(home: string, id: string): string {
  assertValidSessionId(id);
  return join(sessionsDirectory(home), id);
}
