import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `data` to `absolutePath` so that a reader sees the old file or the new one, never half of
 * it: a temporary file in the same folder, fsync, then rename over the target. `mode` (e.g. the
 * old file's permissions) is applied to the new file. The temporary file is removed on failure.
 */
export async function writeFileAtomic(
  absolutePath: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const folder = path.dirname(absolutePath);
  const temporary = path.join(folder, `.${path.basename(absolutePath)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', options.mode ?? 0o666);
  try {
    await handle.writeFile(data);
    // open() applies the umask; an explicit mode must survive it.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, absolutePath);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
