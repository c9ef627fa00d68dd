import { stat } from 'node:fs/promises';

/**
 * Whether a line starting with `/` begins with a path that exists (spaces escaped with `\`, as a
 * terminal pastes a dropped file): such a line is a message with a path in it, not a `/command`.
 */
export async function startsWithExistingPath(line: string): Promise<boolean> {
  const first = /^(?:\\\s|\S)+/.exec(line)?.[0];
  if (first === undefined || !first.startsWith('/') || first.indexOf('/', 1) < 0) return false;
  return (await stat(first.replace(/\\(\s)/g, '$1')).catch(() => undefined)) !== undefined;
}
