import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A bare `--import tsx` is resolved from the child's cwd, a temp dir without node_modules: name the loader by its URL. */
export const tsxLoader = import.meta.resolve('tsx');

/**
 * A TypeScript module for a child process to run or import: its compiled sibling under plain node
 * when the suite runs compiled (`npm test` compiles every test and source file, so `compiled`
 * exists), else the source through tsx (~0.5 s of CPU more a start). The caller resolves both from
 * its own module: `childModule(import.meta.resolve('./child.js'), new URL('./child.ts', import.meta.url))`.
 * `loader` is what the child's node needs on its command line to load `href`.
 */
export function childModule(compiled: string, source: URL): { href: string; loader: string[] } {
  return compiled.endsWith('.js') && existsSync(fileURLToPath(compiled)) ? { href: compiled, loader: [] } : { href: source.href, loader: ['--import', tsxLoader] };
}

/** The node arguments that run a TypeScript child script (see `childModule`). */
export function childScript(compiled: string, source: URL): string[] {
  const { href, loader } = childModule(compiled, source);
  return [...loader, fileURLToPath(href)];
}
