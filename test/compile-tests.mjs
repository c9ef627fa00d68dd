// Compiles the tests and the sources they import (test/**/*.ts, src/**/*.ts) to plain JavaScript in
// .test-build/, one file per module, so each test file's process starts under plain node instead
// of registering tsx: tsx cost ~0.5 s of CPU in every one of the suite's 100+ processes, and its
// per-file transform more on top. Types are stripped only; `npm run typecheck` checks them.
//
// The compiled tree mirrors the project (`test/cli/x.test.ts` → `.test-build/<pid>/test/cli/x.test.js`,
// a folder per run, so two runs in one checkout never overwrite each other's files),
// and every module keeps its source's `import.meta.url`, so paths a test builds from it (fixtures,
// `bin/sylvan.js`, a source file it spawns through tsx) are the same as when tsx runs it.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { isAlive } from '../scripts/process-alive.mjs';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
/** This run's folder; removed when the run ends, and a dead run's folder by the next run. */
const BUILD_FOLDER = join('.test-build', String(process.pid));
const outRoot = join(projectRoot, BUILD_FOLDER);

/** Every .ts module (not .d.ts) under `folder`, as absolute paths. */
function typeScriptUnder(folder) {
  return readdirSync(join(projectRoot, folder), { recursive: true })
    .map((entry) => String(entry))
    .filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.d.ts') && !entry.split(sep).includes('node_modules') && !entry.split(sep).includes('fixtures'))
    .map((entry) => join(projectRoot, folder, entry));
}

/** The compiled path of a source file, relative to the project (`test/a.ts` → `.test-build/test/a.js`). */
export function compiledPath(sourcePath) {
  return join(BUILD_FOLDER, relative(projectRoot, resolve(projectRoot, sourcePath)).replace(/\.ts$/, '.js'));
}

const NODE_TEST = pathToFileURL(join(projectRoot, 'test', 'helpers', 'node-test.mjs')).href;

/**
 * Modules that keep their compiled file's own `import.meta.url`, because they start a sibling module
 * by it: search_files starts its worker thread from `./search-worker.js` beside it when built, and
 * from the source through a tsx starter otherwise, which cost every search in the suite ~0.2 s of
 * CPU to register tsx in the thread. Compiled, the worker beside it is .test-build's own.
 * (test/tools/files/search-files.test.ts starts the tsx starter once itself, as `npm run dev` does.)
 */
const OWN_URL = new Set(['src/tools/files/search-files.ts']);

/**
 * Relative imports stay imports: of a .ts module, to its compiled .js beside; of anything else
 * (.mjs helpers, fixtures), to the original file, by absolute URL. Packages and node: modules are
 * left as they are (node_modules is found from .test-build/ as from the project), but for node:test.
 */
const keepModules = {
  name: 'keep-modules',
  setup(builder) {
    // node:test as test/helpers/node-test.mjs, which records a failing hook in a shard.
    builder.onResolve({ filter: /^node:test$/ }, () => ({ path: NODE_TEST, external: true }));
    builder.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const target = resolve(dirname(args.importer), args.path);
      if (target.endsWith('.ts')) return { path: args.path.replace(/\.ts$/, '.js'), external: true };
      return { path: pathToFileURL(target).href, external: true };
    });
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      // `import.meta.url` becomes the source's own URL (see `define` below), or the compiled file's.
      const project = relative(projectRoot, args.path).split(sep).join('/');
      const own = OWN_URL.has(project) ? pathToFileURL(join(projectRoot, compiledPath(project))).href : pathToFileURL(args.path).href;
      const url = `const __sourceUrl = ${JSON.stringify(own)};\n`;
      return { contents: url + source, loader: 'ts' };
    });
  },
};

/** Our test MCP server, which the MCP and ACP tests start ~16 times a run. */
const TEST_MCP_SERVER = join('test', 'fixtures', 'mcp', 'test-server.mjs');

/**
 * Where this run's bundled copy of the test MCP server is (`compileTests` writes it): one file with
 * the MCP SDK inside starts on 0.13 s of CPU, the SDK's 200-odd modules on 0.34 s. Tests read it
 * as SYLVAN_TEST_MCP_SERVER (test/mcp/mcp-helpers.ts), else start the fixture itself.
 */
export const bundledTestMcpServer = join(outRoot, TEST_MCP_SERVER);

/** Removes the compiled tree of this run. */
export function removeCompiledTests() {
  rmSync(outRoot, { recursive: true, force: true });
}

/** Compiles everything (about half a second); resolves with the number of modules written. */
export async function compileTests() {
  const runs = join(projectRoot, '.test-build');
  if (existsSync(runs)) {
    for (const entry of readdirSync(runs)) {
      if (!/^\d+$/.test(entry) || !isAlive(Number(entry)) || Number(entry) === process.pid) rmSync(join(runs, entry), { recursive: true, force: true });
    }
  }
  const entryPoints = [...typeScriptUnder('src'), ...typeScriptUnder('test')];
  await build({
    absWorkingDir: projectRoot,
    entryPoints,
    outbase: projectRoot,
    outdir: outRoot,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    define: { 'import.meta.url': '__sourceUrl' },
    plugins: [keepModules],
    logLevel: 'error',
    // A stack trace in a failing test points at the source's lines (node --enable-source-maps).
    sourcemap: 'linked',
    sourcesContent: false,
  });
  await build({
    entryPoints: [join(projectRoot, TEST_MCP_SERVER)],
    outfile: bundledTestMcpServer,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // The SDK's CommonJS dependencies call require(), which an ES module has only when given one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  return entryPoints.length;
}
