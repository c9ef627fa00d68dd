import { readlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/**
 * Where an open file really is, as the kernel tracks it (Linux `/proc/self/fd`), whatever links
 * were swapped on the way since it was opened; undefined where the system cannot tell (then the
 * caller falls back to comparing device and inode through the path) or when the file was deleted.
 */
export async function openedPath(handle: FileHandle): Promise<string | undefined> {
  try {
    const found = await readlink(`/proc/self/fd/${handle.fd}`);
    return found.startsWith('/') && !found.endsWith(' (deleted)') ? found : undefined;
  } catch {
    return undefined;
  }
}
