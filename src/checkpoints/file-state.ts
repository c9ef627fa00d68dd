import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, readlink, rmdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.ts';
import type { FileState } from './checkpoint-types.ts';

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** A path as it is on disk now, its bytes read (files only). `undefined` for a folder or anything else that cannot be kept. */
export type Observed =
  | { kind: 'absent' }
  | { kind: 'file'; mode: number; bytes: Buffer; sha256: string }
  | { kind: 'link'; target: string }
  | { kind: 'too-big'; size: number }
  | { kind: 'other' };

/** Reads what is at `absolutePath` without following a symbolic link. Never throws. */
export async function observe(absolutePath: string, maxBytes: number): Promise<Observed> {
  try {
    const stats = await lstat(absolutePath);
    if (stats.isSymbolicLink()) return { kind: 'link', target: await readlink(absolutePath) };
    if (!stats.isFile()) return { kind: 'other' };
    if (stats.size > maxBytes) return { kind: 'too-big', size: stats.size };
    const bytes = await readFile(absolutePath);
    return { kind: 'file', mode: stats.mode & 0o7777, bytes, sha256: sha256(bytes) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'absent' } : { kind: 'other' };
  }
}

/** Whether what is on disk is the recorded state (same bytes and mode, same link, or both absent). */
export function sameState(observed: Observed, state: { kind: string; sha256?: string; mode?: number; target?: string }): boolean {
  if (observed.kind !== state.kind) return false;
  if (observed.kind === 'file') return observed.sha256 === state.sha256 && observed.mode === state.mode;
  if (observed.kind === 'link') return observed.target === state.target;
  return observed.kind === 'absent';
}

/** Puts `absolutePath` back to a state: the bytes written atomically with their mode, a link made again, or the path removed. */
export async function putBack(absolutePath: string, state: { kind: 'absent' } | { kind: 'file'; mode: number; bytes: Buffer } | { kind: 'link'; target: string }): Promise<void> {
  if (state.kind !== 'absent') await mkdir(path.dirname(absolutePath), { recursive: true });
  if (state.kind === 'file') {
    const present = await lstat(absolutePath).catch(() => undefined);
    // A link where a file belongs is replaced, never written through.
    if (present?.isSymbolicLink()) await unlink(absolutePath);
    await writeFileAtomic(absolutePath, state.bytes, { mode: state.mode });
    return;
  }
  await unlink(absolutePath).catch(async (error: NodeJS.ErrnoException) => {
    // A folder the restore emptied (its files went first) makes way for the link it once was.
    if (error.code === 'EISDIR' || error.code === 'EPERM') return rmdir(absolutePath);
    if (error.code !== 'ENOENT') throw error;
  });
  if (state.kind === 'link') await symlink(state.target, absolutePath);
}

/** Whether two recorded states are the same: bytes and mode, a link's target, or both absent. */
export function sameFileState(a: FileState, b: FileState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.sha256 === b.sha256 && a.mode === b.mode;
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  return true;
}
