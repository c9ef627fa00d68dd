import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { sessionsDirectory } from './session-paths.ts';

/**
 * Creates `folder` and its missing parents one level at a time. Node's recursive mkdir never
 * returns for some paths it cannot create (`/proc/nope`), so it is not used. Throws the first
 * system error (ENOENT, EACCES, ENOTDIR, EROFS…).
 */
export function makeFolders(folder: string, mode = 0o700): void {
  const missing: string[] = [];
  let current = folder;
  while (!exists(current)) {
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const path of missing) {
    try {
      mkdirSync(path, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (!statSync(folder).isDirectory()) {
    throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' });
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure $SYLVAN_HOME exists, creating it (mode 0700) if needed. Throws an Error with one line
 * for the user when it cannot be created; a home that exists but cannot be written is left to the
 * session writer, which says so and lets the conversation go on.
 */
export function prepareHome(home: string): void {
  try {
    makeFolders(home);
  } catch (error) {
    throw new Error(`SYLVAN_HOME ${home} cannot be created (${reasonOf(error)}); set SYLVAN_HOME to a folder you can write.`);
  }
}

/**
 * Why no session can be listed or saved in `home` (the sessions folder is unreadable, not a folder,
 * or the home is read-only), or undefined when nothing is wrong. Never throws.
 */
export function sessionsUnavailable(home: string): string | undefined {
  const folder = sessionsDirectory(home);
  try {
    if (exists(folder)) {
      if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
      accessSync(folder, constants.R_OK | constants.W_OK);
    } else {
      accessSync(home, constants.W_OK);
    }
    return undefined;
  } catch (error) {
    return `${exists(folder) ? folder : home} cannot be written (${reasonOf(error)})`;
  }
}

/** A system error as a few words: "read-only file system", "permission denied"… */
export function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'read-only file system',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    ENOTDIR: 'part of the path is a file, not a folder',
    ENOENT: 'a parent folder does not exist and cannot be made',
    EEXIST: 'a file of that name is in the way',
  };
  return (code && words[code]) ?? (error instanceof Error ? error.message.split('\n')[0] ?? 'unknown error' : String(error));
}
