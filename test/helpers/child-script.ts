import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A bare `--import tsx` is resolved from the child's cwd, a temp dir without node_modules: name the loader by its URL. */
export const tsxLoader = import.meta.resolve('tsx');

/**
 * The node arguments that run a TypeScript child script: its compiled sibling under plain node when
 * the suite runs compiled (`npm test` compiles every test file, so `compiled` exists), else the
 * source through tsx (~0.5 s of CPU more a start). The caller resolves both from its own module:
 * `childScript(import.meta.resolve('./child.js'), new URL('./child.ts', import.meta.url))`.
 */
export function childScript(compiled: string, source: URL): string[] {
  const path = fileURLToPath(compiled);
  return path.endsWith('.js') && existsSync(path) ? [path] : ['--import', tsxLoader, fileURLToPath(source)];
}
