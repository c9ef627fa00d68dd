import path from 'node:path';

/**
 * Stands in for a leading dot. Node's matcher never lets a wildcard match a
 * name that starts with a dot, so `**\/*.yml` would miss `.github/ci.yml`;
 * swapping the dot for a private-use code point (absent from real file names)
 * on both sides makes dotfiles match like any other name.
 */
const LEADING_DOT = '\uE000';

function hideLeadingDots(value: string): string {
  return value
    .split('/')
    .map((segment) =>
      segment.startsWith('.') && segment !== '.' && segment !== '..'
        ? LEADING_DOT + segment.slice(1)
        : segment,
    )
    .join('/');
}

/**
 * Whether a `/`-separated relative path matches a glob pattern (`*`, `**`,
 * `?`, `[...]`, `{a,b}`), with names starting with a dot matched like any
 * other name. Case-sensitive. Never throws.
 */
export function matchesGlob(relativePath: string, pattern: string): boolean {
  try {
    return path.posix.matchesGlob(hideLeadingDots(relativePath), hideLeadingDots(pattern));
  } catch {
    return false;
  }
}
