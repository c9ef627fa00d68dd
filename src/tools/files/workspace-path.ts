import type { Stats } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { matchesGlob } from './glob.ts';

/** What every workspace file tool factory takes. */
export interface WorkspaceToolOptions {
  /** The directory Sylvan was started in; tools never reach outside it. */
  workspaceRoot: string;
  /** Extra glob patterns naming secret files (e.g. from SYLVAN_SECRET_PATTERNS). */
  secretPatterns?: readonly string[];
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
  '.env',
  '.env.*',
  '*.pem',
  '*.key',
  'id_rsa*',
  'id_ed25519*',
  'id_ecdsa*',
  '*.p12',
  '*.pfx',
  '.npmrc',
  '.netrc',
];

/** Environment templates hold placeholders, not secrets, and are useful to read. */
const ENVIRONMENT_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template']);

/**
 * Whether a workspace-relative path names a secret file: its base name matches a built-in pattern
 * (`.env`, `.env.*` except `.env.example|sample|template`, `*.pem`, `*.key`, `id_rsa*`,
 * `id_ed25519*`, `id_ecdsa*`, `*.p12`, `*.pfx`, `.npmrc`, `.netrc`) or one of `extraPatterns`
 * (matched against the base name, or against the whole relative path when the pattern has a `/`).
 * Case-insensitive. Never throws.
 */
export function isSecretPath(relativePath: string, extraPatterns: readonly string[] = []): boolean {
  const normalized = relativePath.split(path.sep).join('/').replace(/^(\.\/)+/, '').toLowerCase();
  const baseName = normalized.split('/').pop() ?? normalized;
  const matches = (pattern: string): boolean => {
    const lowered = pattern.trim().toLowerCase();
    if (lowered === '') return false;
    return lowered.includes('/') ? matchesGlob(normalized, lowered) : matchesGlob(baseName, lowered);
  };
  if (extraPatterns.some(matches)) return true;
  return !ENVIRONMENT_TEMPLATES.has(baseName) && DEFAULT_SECRET_PATTERNS.some(matches);
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
  if (options.refuseSecrets !== false) {
    const secretPatterns = options.secretPatterns ?? [];
    const requested = toRelative(root, absolute);
    if (isSecretPath(requested, secretPatterns) || isSecretPath(relativePath, secretPatterns)) {
      throw secretRefusal(userPath, requested === relativePath ? undefined : relativePath, options.forWrite === true);
    }
  }
  return { root, absolutePath, relativePath };
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

function secretRefusal(userPath: string, linkTarget: string | undefined, forWrite: boolean): Error {
  const subject = linkTarget === undefined ? userPath : `${userPath} (a link to ${linkTarget})`;
  return forWrite
    ? new Error(`writing ${subject} is refused: it may hold secrets such as API keys, and Sylvan does not edit secret files; ask the user to change it themselves`)
    : new Error(`reading ${subject} is refused: it may hold secrets such as API keys, which must not be sent to the model`);
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

function toRelative(root: string, absolute: string): string {
  const relative = path.relative(root, absolute);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}
