import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, realpath, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { openedPath } from './opened-path.ts';

/**
 * Replaces `absolutePath` with `data` so that a crash, a kill or a full disk at any moment leaves
 * either the old file or the new one, never a mix: the data goes to a new temp file in the same
 * folder (created with O_EXCL | O_NOFOLLOW), is fsynced, and the temp file is renamed over the
 * target. The new file keeps `options.mode`, or else the mode of the file it replaces. The temp
 * file is removed on failure. The folder must be given as a real path (as `resolveWorkspaceTarget`
 * returns it): if it, or the temp file, is swapped for something else while writing (a symbolic
 * link planted between the check and the write), the write is refused and nothing lands elsewhere.
 */
export async function writeFileAtomic(absolutePath: string, data: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const folder = path.dirname(absolutePath);
  const temp = path.join(folder, `.${path.basename(absolutePath).slice(0, 80)}.${randomBytes(6).toString('hex')}.sylvan-tmp`);
  const mode = options.mode ?? (await existingMode(absolutePath));
  let handle: FileHandle | undefined;
  let created = false;
  try {
    handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode ?? 0o666);
    created = true;
    await assertOpenedAt(handle, folder, temp);
    await handle.writeFile(data);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, absolutePath);
    created = false;
    await syncFolder(folder);
  } catch (error) {
    // Remove the temp file where it really is, even if a swapped link put it elsewhere.
    const where = handle === undefined ? temp : ((await openedPath(handle)) ?? temp);
    await handle?.close().catch(() => {});
    if (created) await unlink(where).catch(() => {});
    throw error;
  }
}

/** Without /proc: the folder still resolves to itself and the entry there is the opened file. */
async function sameFileThroughPath(handle: FileHandle, folder: string, temp: string): Promise<boolean> {
  const opened: Stats = await handle.stat();
  const realFolder = await realpath(folder).catch(() => undefined);
  const entry = await lstat(temp).catch(() => undefined);
  return realFolder === folder && entry !== undefined && entry.dev === opened.dev && entry.ino === opened.ino;
}

async function existingMode(absolutePath: string): Promise<number | undefined> {
  try {
    const stats = await lstat(absolutePath);
    return stats.isFile() ? stats.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}

/** The temp file was created in `folder` itself, not through a link swapped in since the check. */
async function assertOpenedAt(handle: FileHandle, folder: string, temp: string): Promise<void> {
  const actual = await openedPath(handle);
  const inPlace = actual !== undefined ? actual === temp : await sameFileThroughPath(handle, folder, temp);
  if (!inPlace) {
    const error = new Error(`the folder ${folder} changed while it was being written (a link was swapped in); nothing was written`);
    (error as NodeJS.ErrnoException).code = 'ESWAPPED';
    throw error;
  }
}

/** Makes the rename itself durable; some file systems cannot fsync a folder, which is harmless. */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Best effort only.
  } finally {
    await handle?.close().catch(() => {});
  }
}
