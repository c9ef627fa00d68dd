// `npm run build`: src/ → dist/ as a few bundled files (esbuild), which `npm run bench` measured
// faster than tsc's one-file-per-module output: ~25% less time to load the runtime, ~7 MB less
// memory at the prompt. Type checking stays with `npm run typecheck` (tsc).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { isCurrent, recordInputs } from './build-inputs.mjs';
import { isAlive } from './process-alive.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/**
 * `node scripts/build.mjs [folder] [--clean] [--if-changed]`: dist/ by default; the built-CLI test
 * builds into a temp folder. `--clean` (npm's prepack) leaves only this build's files, so a package
 * never ships an earlier build's chunks. `--if-changed` (`npm test`) builds only when a file the
 * last build read has changed since (scripts/build-inputs.mjs).
 */
const commandLine = process.argv.slice(2);
const clean = commandLine.includes('--clean');
const ifChanged = commandLine.includes('--if-changed');
const target = resolve(root, commandLine.find((argument) => !argument.startsWith('--')) ?? 'dist');
/**
 * The build is written beside the target and moved into it when whole (publish, below): a CLI that
 * starts while `npm run bench`, `npm test` or `npm install` rebuilds must never find dist/ half
 * written, as it did when esbuild wrote into the folder it had just emptied.
 */
const staging = `${target}.building-${process.pid}`;

/**
 * Packages left as imports from node_modules instead of bundled: those that read their own files or
 * resolve modules at run time do not survive bundling. Add a package here if the built CLI fails
 * where `npm run dev` works.
 */
const EXTERNAL = ['dotenv'];

/**
 * Node's own modules are taken with require(), not import, and a name of one is read only where it
 * is imported. Importing one as an ES module makes Node build its whole namespace, which runs every lazy getter:
 * `node:fs` loads fs/promises and readline's internals, `node:util` worker_threads and the diff code,
 * `node:process` opens stdin. esbuild's own CommonJS wrapper copies every property and so does the
 * same. Measured on Node 22, one import each: fs 3.4 ms against 0.2 ms required, util 3.6 against
 * 0.2, process 7.1 against 0.3.
 */
const require = createRequire(import.meta.url);
const identifier = /^[A-Za-z_$][\w$]*$/;
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(build) {
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      isBuiltin(args.path) && args.kind === 'import-statement' ? { path: args.path, namespace: 'node-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      // Each export is a pure call, so esbuild drops the ones nothing imports and only the getters of
      // names in use ever run.
      const names = Object.getOwnPropertyNames(require(args.path)).filter((name) => identifier.test(name) && name !== 'default');
      const exports = names.map((name) => `export const ${name} = /* @__PURE__ */ __builtinRead(${JSON.stringify(name)});`);
      return {
        contents: [`const __builtin = require(${JSON.stringify(args.path)});`, 'const __builtinRead = (name) => __builtin[name];', 'export default __builtin;', ...exports].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * zod's `z` namespace re-exports every one of its 64 locales (`z.locales`), so bundling `import { z }`
 * kept 355 kB of error messages in languages Sylvan never sets: half the zod chunk, parsed on every
 * start (Node 20 has no compile cache). Only English is kept, which zod installs itself
 * (`config(en())` in classic/external.js imports ../locales/en.js directly); nothing in Sylvan or
 * the AI SDK reads `z.locales`.
 */
const onlyEnglishZodLocale = {
  name: 'only-english-zod-locale',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: resolve(args.resolveDir, '../locales/index.js'), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: resolve(args.path, '..'),
      loader: 'js',
    }));
  },
};

/**
 * `ai` imports `@ai-sdk/gateway` (Vercel's AI Gateway, with `@vercel/oidc`: ~160 kB) for the models
 * named by a plain string, which Sylvan never passes: its models are provider objects. What `ai`
 * takes from it is replaced by its meaning here: no error can be a gateway's, and the gateway
 * itself refuses to be used. If `ai` ever imports another name, esbuild stops the build ("No
 * matching export"), so this cannot go stale silently.
 */
const noAiGateway = {
  name: 'no-ai-gateway',
  setup(build) {
    build.onResolve({ filter: /^@ai-sdk\/gateway$/ }, () => ({ path: '@ai-sdk/gateway', namespace: 'no-ai-gateway' }));
    build.onLoad({ filter: /.*/, namespace: 'no-ai-gateway' }, () => ({
      contents: [
        'const notUsed = () => { throw new Error("Sylvan passes provider models, never a model name for the AI Gateway."); };',
        'const noneOfItsErrors = { isInstance: () => false };',
        'export const GatewayError = noneOfItsErrors;',
        'export const GatewayAuthenticationError = noneOfItsErrors;',
        'export const createGateway = notUsed;',
        'export const gateway = new Proxy(notUsed, { get: notUsed });',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

const requireBanner = "import { createRequire as __sylvanCreateRequire } from 'node:module'; const require = __sylvanCreateRequire(import.meta.url);";
const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const common = {
  absWorkingDir: root,
  define: { SYLVAN_VERSION: JSON.stringify(version) },
  outdir: staging,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // Bundled CommonJS dependencies call require(); an ES module has none unless given one.
  banner: { js: requireBanner },
  legalComments: 'none',
  plugins: [builtinsThroughRequire, onlyEnglishZodLocale, noAiGateway],
  logLevel: 'warning',
};

/**
 * esbuild gives every module that the CLI shares with a lazily loaded chunk a chunk of its own, so
 * drawing the prompt loaded 14 files, and each ES module file costs about 0.45 ms to resolve, read
 * and link (14 chained one-line modules against one file, Node 22). This folds every chunk that
 * dist/cli.js imports statically into cli.js itself, and points the chunks loaded after the prompt
 * at cli.js for what they import from those, so they still share one instance of every module
 * (one ConfigError class, one settings state).
 */
async function foldPromptChunks(metafile) {
  const outputs = metafile.outputs;
  const cli = Object.keys(outputs).find((file) => outputs[file].entryPoint === 'src/cli.ts');
  const folded = new Set();
  const visit = (file) => {
    for (const imported of outputs[file].imports) {
      if (imported.kind !== 'import-statement' || imported.external || folded.has(imported.path)) continue;
      folded.add(imported.path);
      visit(imported.path);
    }
  };
  visit(cli);
  const exporter = new Map(outputs[cli].exports.map((name) => [name, cli]));
  for (const file of folded) {
    for (const name of outputs[file].exports) {
      // `export *` drops a name two modules export, and `default` always: refuse rather than lose one.
      if (name === 'default') throw new Error(`build: cannot fold ${file} into cli.js: it has a default export`);
      if (exporter.has(name)) throw new Error(`build: cannot fold ${file} into cli.js: it exports "${name}", as does ${exporter.get(name)}`);
      exporter.set(name, file);
    }
  }
  const absolute = (file) => resolve(root, file);
  const mergeable = new Set([cli, ...folded].map(absolute));
  const entry = [...folded, cli].map((file) => `export * from ${JSON.stringify(`./${basename(file)}`)};`).join('\n');
  const { outputFiles } = await build({
    stdin: { contents: entry, resolveDir: staging, sourcefile: 'prompt.js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    outfile: absolute(cli),
    // Once for the whole file, rather than once for each chunk folded in.
    banner: { js: requireBanner },
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [
      {
        name: 'only-the-prompt-chunks',
        setup(build) {
          // Everything else (the lazy chunks, node: modules) stays an import, by the same relative path.
          build.onResolve({ filter: /.*/ }, (args) =>
            args.path.startsWith('.') && mergeable.has(resolve(args.resolveDir, args.path)) ? undefined : { path: args.path, external: true },
          );
          build.onLoad({ filter: /\.js$/ }, (args) => ({ contents: readFileSync(args.path, 'utf8').replace(requireBanner, ''), loader: 'js' }));
        },
      },
    ],
  });
  writeFileSync(absolute(cli), outputFiles[0].contents);
  // The chunks loaded later import what they shared with the prompt from cli.js itself: a stub
  // re-exporting it in each folded chunk's place was one more file to resolve and link per import
  // (a print-mode turn loaded 62 files, 38 of them such stubs: ~28 ms of CPU a start).
  const foldedNames = [...folded].map((file) => `"./${basename(file)}"`);
  for (const file of Object.keys(outputs)) {
    if (file === cli || folded.has(file) || !file.endsWith('.js')) continue;
    const code = readFileSync(absolute(file), 'utf8');
    const pointed = foldedNames.reduce((text, name) => text.replaceAll(name, '"./cli.js"'), code);
    if (pointed !== code) writeFileSync(absolute(file), pointed);
  }
  for (const file of folded) rmSync(absolute(file));
}

/**
 * How long the files of an earlier build stay in dist/ beside the new one: a Sylvan already running
 * loads its lazy chunks by the names its cli.js was built with, so they are kept for a session's
 * length rather than removed with the build that replaced them (chunk names carry hashes, so the
 * two sets never overwrite each other, and an unchanged build leaves nothing behind).
 */
const EARLIER_BUILD_KEPT_MS = 24 * 60 * 60 * 1000;

/** Staging folders of builds that were killed before they published (their process is gone). */
function removeAbandonedStaging() {
  const prefix = `${basename(target)}.building-`;
  let siblings = [];
  try {
    siblings = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of siblings) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    rmSync(join(dirname(target), name), { recursive: true, force: true });
  }
}

/**
 * Moves the staged build into the target file by file, each a rename (atomic): the chunks first,
 * then the entries that import them, cli.js last, so a CLI starting at any moment finds every file
 * its entry names. Files of earlier builds older than EARLIER_BUILD_KEPT_MS (with --clean, all) are
 * then removed. Returns the files published.
 */
function publish() {
  mkdirSync(target, { recursive: true });
  const entries = ['search-worker.js', 'config.js', 'cli.js'];
  const built = readdirSync(staging);
  const order = [...built.filter((file) => !entries.includes(file)), ...entries.filter((file) => built.includes(file))];
  for (const file of order) renameSync(join(staging, file), join(target, file));
  const now = Date.now();
  for (const file of readdirSync(target)) {
    if (built.includes(file)) continue;
    const path = join(target, file);
    if (clean || now - statSync(path).mtimeMs > EARLIER_BUILD_KEPT_MS) rmSync(path, { recursive: true, force: true });
  }
  return built;
}

/** What a build reads besides the inputs esbuild reports: this script, its helpers, and the versions. */
const BUILD_ITSELF = ['scripts/build.mjs', 'scripts/build-inputs.mjs', 'scripts/process-alive.mjs', 'package.json', 'package-lock.json', 'node_modules/esbuild/package.json'];

if (ifChanged && !clean && isCurrent(root, target)) process.exit(0);
removeAbandonedStaging();
try {
  const { metafile } = await build({
    ...common,
    entryPoints: { cli: 'src/cli.ts' },
    // Every `import()` becomes its own chunk, so what loads after the prompt still loads after it.
    splitting: true,
    // Beside the entry, so that a path relative to import.meta.url means the same in every file.
    chunkNames: '[name]-[hash]',
    metafile: true,
  });
  await foldPromptChunks(metafile);
  // Two entries that run alone, each one file: config.js answers `sylvan --help` (bin/sylvan.js)
  // without loading the CLI, and search_files' worker thread starts from search-worker.js.
  const alone = await build({ ...common, entryPoints: { config: 'src/config/flags.ts', 'search-worker': 'src/tools/files/search-worker.ts' }, metafile: true });
  // The package leaves the record out (package.json's `files`).
  recordInputs(root, target, [...BUILD_ITSELF, ...Object.keys(metafile.inputs), ...Object.keys(alone.metafile.inputs)], publish());
} finally {
  rmSync(staging, { recursive: true, force: true });
}
