import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The files under `root` (recursively, symbolic links not followed) whose bytes contain `needle`,
 * as paths relative to `root`, optionally skipping some of those relative paths.
 */
export function filesContaining(root: string, needle: string, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && !skip.includes(relative(root, path)) && readFileSync(path).includes(needle)) found.push(relative(root, path));
    }
  };
  walk(root);
  return found;
}
