import type { EditorFiles } from './editor-files.ts';
import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { matchesGlob } from './glob.ts';
import { openedPath } from './opened-path.ts';

/** What every workspace file tool factory takes. */
export interface WorkspaceToolOptions {
  /** The directory Sylvan was started in; tools never reach outside it. */
  workspaceRoot: string;
  /** Extra glob patterns naming secret files (e.g. from SYLVAN_SECRET_PATTERNS). */
  secretPatterns?: readonly string[];
  /** The editor's buffers, when an editor offers them (ACP): read and written there instead of on disk. */
  editorFiles?: EditorFiles;
}

export interface ResolveWorkspacePathOptions {
  /** The path is about to be written: the workspace root itself is refused and refusals say "writing". */
  forWrite?: boolean;
  /** Refuse secret files (default true); list_files turns this off because names of secret files are harmless. */
  refuseSecrets?: boolean;
  /** Extra glob patterns naming secret files, on top of the built-in ones. */
  secretPatterns?: readonly string[];
}

export interface WorkspaceTarget {
  /** The real (symlink-free) workspace root. */
  root: string;
  /** The real absolute path; for a path that does not exist yet, its nearest existing ancestor is real. */
  absolutePath: string;
  /** `absolutePath` relative to `root`, `/`-separated; "." for the root itself. */
  relativePath: string;
}

const DEFAULT_SECRET_PATTERNS = [
  // .env, .env.local, .envrc, an editor's .env~ / #.env# / .#.env
  '.env*',
  '#.env*',
  '.#.env*',
  '*.pem',
  '*.key',
  'id_rsa*',
  'id_ed25519*',
  'id_ecdsa*',
  '*.p12',
  '*.pfx',
  '.npmrc',
  '.netrc',
  '.pgpass',
  '.git-credentials',
  'credentials*.json',
  '*.keystore',
  '*.jks',
  '**/.aws/**',
  '**/.ssh/**',
  '**/.gnupg/**',
  '**/.docker/config.json',
];

/** Environment templates hold placeholders, not secrets, and are useful to read. */
const ENVIRONMENT_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template']);

/**
 * Whether a workspace-relative path names a secret file: its base name matches a built-in pattern
 * (`.env*` except `.env.example|sample|template`, editor copies such as `#.env#`, `*.pem`, `*.key`,
 * `id_rsa*`, `id_ed25519*`, `id_ecdsa*`, `*.p12`, `*.pfx`, `*.keystore`, `*.jks`, `.npmrc`, `.netrc`,
 * `.pgpass`, `.git-credentials`, `credentials*.json`), it lies in `.aws/`, `.ssh/` or `.gnupg/`, it is
 * `.docker/config.json`, or it matches one of `extraPatterns`
 * (matched against the base name, or against the whole relative path when the pattern has a `/`;
 * a leading `/` anchors it at the workspace root).
 * Case-insensitive. Never throws.
 */
export function isSecretPath(relativePath: string, extraPatterns: readonly string[] = []): boolean {
  const normalized = relativePath.split(path.sep).join('/').replace(/^(\.\/)+/, '').toLowerCase();
  const baseName = normalized.split('/').pop() ?? normalized;
  const matches = (pattern: string): boolean => {
    const lowered = pattern.trim().toLowerCase();
    if (lowered === '' || lowered === '/') return false;
    if (lowered.startsWith('/')) return matchesGlob(normalized, lowered.slice(1));
    return lowered.includes('/') ? matchesGlob(normalized, lowered) : matchesGlob(baseName, lowered);
  };
  if (extraPatterns.some(matches)) return true;
  return !ENVIRONMENT_TEMPLATES.has(baseName) && DEFAULT_SECRET_PATTERNS.some(matches);
}

/** Whether everything in a workspace-relative folder is secret (`.ssh/`, a hidden path such as `$SYLVAN_HOME`), so it is not even listed. */
export function holdsSecrets(relativeFolder: string, extraPatterns: readonly string[] = []): boolean {
  return relativeFolder !== '.' && isSecretPath(`${relativeFolder}/\u0000`, extraPatterns);
}

/**
 * Resolves a path the model gave to a real absolute path inside the workspace, or throws an Error
 * whose message tells the model why the path is refused: NUL bytes, `~`, anything that lands
 * outside the workspace (`..`, absolute paths elsewhere, symbolic links pointing out, broken
 * symbolic links), secret files (unless `refuseSecrets` is false) and, for writes, the root itself.
 * Absolute paths inside the workspace are accepted. A path segment missing on disk is also looked
 * up under other Unicode normalizations (NFC/NFD), so names written by macOS are found.
 */
export async function resolveWorkspaceTarget(
  workspaceRoot: string,
  userPath: string,
  options: ResolveWorkspacePathOptions = {},
): Promise<WorkspaceTarget> {
  if (userPath.includes('\0')) {
    throw new Error(`path ${JSON.stringify(userPath)} contains a NUL byte; use a plain path inside the workspace`);
  }
  const givenRoot = path.resolve(workspaceRoot);
  if (userPath === '~' || /^~[^/\\]*[/\\]/.test(userPath)) {
    throw new Error(`path ${userPath} starts with ~, which is not expanded; use a path relative to the workspace ${givenRoot}`);
  }
  const root = await realRoot(givenRoot);

  let absolute = path.resolve(root, userPath);
  // The root may be reached through a symbolic link (macOS /tmp); an absolute path spelled that way is still inside.
  if (!isInside(root, absolute) && isInside(givenRoot, absolute)) {
    absolute = path.join(root, path.relative(givenRoot, absolute));
  }
  if (!isInside(root, absolute)) {
    throw new Error(`path ${userPath} is outside the workspace ${givenRoot}; use a path inside it`);
  }

  const absolutePath = await followInside(root, absolute, userPath, givenRoot);
  const relativePath = toRelative(root, absolutePath);
  if (options.forWrite && relativePath === '.') {
    throw new Error(`path ${userPath} is the workspace folder itself; give a file path inside it`);
  }
  if (options.forWrite && (isInsideGitFolder(toRelative(root, absolute)) || isInsideGitFolder(relativePath))) {
    throw new Error(
      `writing ${userPath} is refused: files under .git/ control git itself (hooks and config run commands), so Sylvan does not change them; ask the user to do it themselves`,
    );
  }
  await refuseHardLink(absolutePath, userPath);
  if (options.refuseSecrets !== false) {
    const secretPatterns = options.secretPatterns ?? [];
    const requested = toRelative(root, absolute);
    if (isSecretPath(requested, secretPatterns) || isSecretPath(relativePath, secretPatterns)) {
      throw secretRefusal(userPath, requested === relativePath ? undefined : relativePath, options.forWrite === true);
    }
  }
  return { root, absolutePath, relativePath };
}

/**
 * Opens a resolved target for reading without following a link swapped in since it was resolved:
 * O_NOFOLLOW, then the opened file must be the one at the path (same device and inode) and have a
 * single name (a hard link may lead to a secret or out of the workspace). Throws an Error for the
 * model otherwise; the caller closes the handle.
 */
export async function openWorkspaceFile(target: WorkspaceTarget, userPath: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(target.absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new Error(`path ${userPath} changed into a symbolic link while it was being opened; it was not read`);
    if (code === 'EACCES' || code === 'EPERM') throw new Error(`cannot read ${target.relativePath}: permission denied`);
    throw new Error(`cannot read ${target.relativePath}: ${(error as Error).message}`);
  }
  try {
    const opened = await handle.stat();
    const actual = await openedPath(handle);
    const atPath = actual === undefined ? await stat(target.absolutePath).catch(() => undefined) : undefined;
    const inPlace = actual !== undefined ? actual === target.absolutePath : atPath?.dev === opened.dev && atPath?.ino === opened.ino;
    if (!inPlace) {
      throw new Error(`path ${userPath} was replaced while it was being opened; it was not read`);
    }
    if (opened.isFile() && opened.nlink > 1) throw hardLinkRefusal(userPath);
    return handle;
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

/** `resolveWorkspaceTarget` reduced to the real absolute path; same refusals. */
export async function resolveWorkspacePath(
  workspaceRoot: string,
  userPath: string,
  options: ResolveWorkspacePathOptions = {},
): Promise<string> {
  return (await resolveWorkspaceTarget(workspaceRoot, userPath, options)).absolutePath;
}

async function realRoot(givenRoot: string): Promise<string> {
  try {
    return await realpath(givenRoot);
  } catch {
    throw new Error(`the workspace folder ${givenRoot} cannot be opened; it may have been moved or deleted`);
  }
}

/** Walks the path one segment at a time so every symbolic link on the way is checked, existing or not. */
async function followInside(root: string, absolute: string, userPath: string, givenRoot: string): Promise<string> {
  const segments = path.relative(root, absolute).split(path.sep).filter((segment) => segment !== '');
  let current = root;
  for (const [index, segment] of segments.entries()) {
    let candidate = path.join(current, segment);
    let stats = await lstatIfPresent(candidate, userPath);
    if (stats === undefined) {
      const variant = await findNormalizationVariant(current, segment);
      if (variant !== undefined) {
        candidate = path.join(current, variant);
        stats = await lstatIfPresent(candidate, userPath);
      }
    }
    if (stats === undefined) {
      // Nothing below a missing segment exists, so no symbolic link can hide there.
      return path.join(candidate, ...segments.slice(index + 1));
    }
    if (!stats.isSymbolicLink()) {
      current = candidate;
      continue;
    }
    let target: string;
    try {
      target = await realpath(candidate);
    } catch {
      throw new Error(
        `path ${userPath} goes through ${toRelative(root, candidate)}, a symbolic link whose target does not exist; use a path to an existing file or folder`,
      );
    }
    if (!isInside(root, target)) {
      throw new Error(
        `path ${userPath} is outside the workspace ${givenRoot}: ${toRelative(root, candidate)} is a symbolic link to ${target}; use a path inside it`,
      );
    }
    current = target;
  }
  return current;
}

async function lstatIfPresent(candidate: string, userPath: string): Promise<Stats | undefined> {
  try {
    return await lstat(candidate);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'EACCES' || code === 'EPERM') throw new Error(`cannot access ${userPath}: permission denied`);
    throw new Error(`cannot access ${userPath}: ${(error as Error).message}`);
  }
}

async function findNormalizationVariant(directory: string, segment: string): Promise<string | undefined> {
  const composed = segment.normalize('NFC');
  if (composed === segment.normalize('NFD')) return undefined;
  try {
    const names = await readdir(directory);
    return names.find((name) => name !== segment && name.normalize('NFC') === composed);
  } catch {
    return undefined;
  }
}

/** A regular file with more than one name may be a secret or a file outside the workspace under another name. */
async function refuseHardLink(absolutePath: string, userPath: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await lstat(absolutePath);
  } catch {
    return;
  }
  if (stats.isFile() && stats.nlink > 1) throw hardLinkRefusal(userPath);
}

function hardLinkRefusal(userPath: string): Error {
  return new Error(
    `path ${userPath} is a hard link (the same file has another name, possibly outside the workspace or a secret), so Sylvan does not open it; ask the user to copy it to a normal file`,
  );
}

function isInsideGitFolder(relativePath: string): boolean {
  return relativePath.split('/').some((segment) => segment.toLowerCase() === '.git');
}

function secretRefusal(userPath: string, linkTarget: string | undefined, forWrite: boolean): Error {
  const subject = linkTarget === undefined ? userPath : `${userPath} (a link to ${linkTarget})`;
  return forWrite
    ? new Error(`writing ${subject} is refused: it may hold secrets such as API keys, and Sylvan does not edit secret files; ask the user to change it themselves`)
    : new Error(`reading ${subject} is refused: it may hold secrets such as API keys, which must not be sent to the model`);
}

/** Whether `child` (an absolute path) is `parent` or lies below it. */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** `absolute` relative to `root`, with `/` separators (`.` for the root itself). */
export function toRelative(root: string, absolute: string): string {
  const relative = path.relative(root, absolute);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}
