import { lstatSync, readFileSync } from 'node:fs';

/** More would be a machine of containers; the first ones are masked all the same. */
const MAX_SOCKETS = 4096;

/**
 * The Unix sockets bound to a path in Sylvan's network namespace (from /proc/net/unix), each an
 * existing socket file: a Docker daemon, a database, a session bus under /var or a home folder.
 * A read-only file system does not stop a `connect()` to one, and a network namespace does not
 * either, so the sandbox masks each. Abstract sockets (`@…`) belong to the network namespace and
 * need no mask without the network. Empty where there is no /proc. Never throws.
 */
export function boundUnixSockets(table = '/proc/net/unix'): string[] {
  let text: string;
  try {
    text = readFileSync(table, 'utf8');
  } catch {
    return [];
  }
  const found = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    // "Num RefCount Protocol Flags Type St Inode Path": the path is what follows the seventh field.
    const path = /^\s*(?:\S+\s+){7}(\/.*)$/.exec(line)?.[1];
    if (path === undefined || found.has(path)) continue;
    try {
      if (!lstatSync(path).isSocket()) continue;
    } catch {
      continue; // Bound, then removed: nothing to reach.
    }
    found.add(path);
    if (found.size >= MAX_SOCKETS) break;
  }
  return [...found];
}
