// `npm test`: every test/**/*.test.ts through Node's test runner, on Node 20 as on 22.
// Node 20's `--test` does not expand globs and no shell expands `**` the same way everywhere, so
// the files are listed here and handed to `node --test`, whose own reporter prints the summary.
// The tests run compiled (test/compile-tests.mjs, into .test-build/), under plain node; the
// in-process files share a few processes (shards, test/helpers/shard.mjs).
//
//   npm test                               the whole suite
//   npm test -- test/cli                   the test files under a folder (or named files)
//   npm test -- --test-name-pattern=401    any other argument goes to node --test
//   SYLVAN_TEST_SHARDS=0 npm test          every file in a process of its own
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundledTestMcpServer, compileTests, compiledPath, removeCompiledTests } from './compile-tests.mjs';
import { IN_PROCESS_SECONDS, RUN_ALONE, SAME_SHARD, SPAWNING_FILES, STARTS_THE_CLI } from './file-budgets.mjs';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const testRoot = join(projectRoot, 'test');

/**
 * The bound on one test file's run (node applies --test-timeout to each file's process): a file
 * that hangs fails with "test timed out" instead of holding CI. The slowest file (the memory tests)
 * takes half a minute on an idle 2-core machine and nearly three on one loaded eight times over;
 * each test also has its own, shorter limit. SYLVAN_TEST_FILE_TIMEOUT_MS changes the bound.
 */
const fileTimeoutMs = Number(process.env.SYLVAN_TEST_FILE_TIMEOUT_MS ?? 480_000);

/**
 * The in-process files (not in test/file-budgets.mjs) run in this many shards: processes that each
 * import their share of the files one after another (test/helpers/shard.mjs), instead of a
 * process per file — starting node and loading `ai`, zod and the providers cost each file ~0.5–0.8 s
 * of CPU. One per core. SYLVAN_TEST_SHARDS=0 gives every file its own process again.
 */
const shardCount = Number(process.env.SYLVAN_TEST_SHARDS ?? 2);
/** A file in a shard is stopped after half the bound of a process (the shard has the whole bound). */
const shardFileTimeoutMs = Math.round(fileTimeoutMs / 2);
/**
 * Options that choose tests by name: Node 22 filters a suite out when it starts, before a shard's
 * suite for a file has imported the file's tests, so with these every file has its own process.
 */
const CHOOSES_TESTS = /^--test-(name-pattern|skip-pattern|only)\b/;
/**
 * Process-wide hooks the sources install once, on first use (the shell tools' exit hook): a shard
 * installs them before its first file, so the file that happens to use them first does not seem
 * to leave listeners behind.
 */
const INSTALLED_ONCE = [{ module: 'src/tools/shell/process-group.ts', call: 'installExitHook' }];

/** The *.test.ts files under `folder` (recursively), sorted, as paths relative to the project. */
function testFilesUnder(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: false })
    .map((entry) => String(entry))
    .filter((entry) => entry.endsWith('.test.ts') && !entry.split(sep).includes('node_modules'))
    .map((entry) => relative(projectRoot, join(folder, entry)))
    .sort();
}

const isPath = (argument) => !argument.startsWith('-') && (argument.endsWith('.ts') || isFolder(argument));
function isFolder(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const chosen = process.argv.slice(2).filter(isPath);
const nodeOptions = process.argv.slice(2).filter((argument) => !isPath(argument));
const found = chosen.length === 0
  ? testFilesUnder(testRoot)
  : chosen.flatMap((path) => (isFolder(path) ? testFilesUnder(path) : [relative(projectRoot, resolve(path))]));

// Quick in-process files first (in shards, see below), then the files that start processes
// (test/file-budgets.mjs), longest budget first: a slow file started last would leave one runner
// slot idle while it ends.
const projectPath = (file) => file.split(sep).join('/');
const budgetOf = (file) => SPAWNING_FILES[projectPath(file)]?.seconds;
const inProcess = found.filter((file) => budgetOf(file) === undefined);
const spawning = found.filter((file) => budgetOf(file) !== undefined).sort((a, b) => budgetOf(b) - budgetOf(a) || a.localeCompare(b));
const files = [...inProcess, ...spawning];
const shardable = inProcess.filter((file) => RUN_ALONE[projectPath(file)] === undefined);
const sharding = shardCount >= 1 && shardable.length >= 2 && !nodeOptions.some((option) => CHOOSES_TESTS.test(option));
const unlisted = inProcess.filter((file) => STARTS_THE_CLI.test(readFileSync(join(projectRoot, file), 'utf8')));
if (unlisted.length > 0) {
  console.error(`These files start the CLI but have no budget in test/file-budgets.mjs (so they run with the quick ones): ${unlisted.join(', ')}`);
}
if (files.length === 0) {
  console.error(`No *.test.ts file found under ${chosen.join(', ') || relative(process.cwd(), testRoot)}.`);
  process.exit(1);
}

// The tests start the built CLI (bin/sylvan.js → dist/), as a user does: build it first (~1 s, or
// nothing when no file it is built from changed since the last build), so no test runs a stale build.
// The tests and the sources they import are compiled at the same time (~1 s): starting 100+ test
// processes under tsx cost each ~0.5 s of CPU.
const building = new Promise((resolve) => {
  const build = spawn(process.execPath, [join(projectRoot, 'scripts', 'build.mjs'), '--if-changed'], { cwd: projectRoot, stdio: 'inherit' });
  build.on('error', () => resolve(1));
  build.on('exit', (code) => resolve(code ?? 1));
});
const compiling = compileTests().then(
  () => undefined,
  (error) => (error instanceof Error ? error.message : String(error)),
);
if ((await building) !== 0) {
  console.error('The build failed (npm run build): the tests start the built CLI, so none were run.');
  process.exit(1);
}
const notCompiled = await compiling;
if (notCompiled !== undefined) {
  console.error(`The tests could not be compiled: ${notCompiled}`);
  process.exit(1);
}

/**
 * The shardable files split into `count` shares of about the same time (test/file-budgets.mjs),
 * the same split on every run: the longest first, each to the share with the least so far; each
 * share then runs in path order. The files of a SAME_SHARD group go to one share together, and run
 * last in it: what they load (the TypeScript compiler) stays in the heap, and every file after them
 * would pay for it in each collection and each child it starts (a fork copies the page tables):
 * ~1 s of CPU in that shard.
 */
function split(count) {
  const secondsOf = (file) => IN_PROCESS_SECONDS[projectPath(file)] ?? 0.2;
  const groupOf = (file) => SAME_SHARD.find((group) => group.includes(projectPath(file)));
  const units = [];
  for (const file of shardable) {
    const group = groupOf(file);
    const unit = group && units.find((candidate) => candidate.group === group);
    if (unit) unit.files.push(file);
    else units.push({ group, files: [file] });
  }
  const unitSeconds = (unit) => unit.files.reduce((sum, file) => sum + secondsOf(file), 0);
  const shares = Array.from({ length: count }, () => ({ files: [], seconds: 0 }));
  for (const unit of units.sort((a, b) => unitSeconds(b) - unitSeconds(a) || a.files[0].localeCompare(b.files[0]))) {
    const share = shares.reduce((least, next) => (next.seconds < least.seconds ? next : least));
    share.files.push(...unit.files);
    share.seconds += unitSeconds(unit);
  }
  const inGroup = (file) => (groupOf(file) === undefined ? 0 : 1);
  return shares.map((share) => share.files.sort((a, b) => inGroup(a) - inGroup(b) || a.localeCompare(b)));
}

/** The shards' entry files, in .test-build/<pid>/. */
function writeShards() {
  const installedOnce = INSTALLED_ONCE.map(({ module, call }) => ({ url: pathToFileURL(join(projectRoot, compiledPath(module))).href, call }));
  const shares = split(Math.min(shardCount, shardable.length));
  return shares.map((files, index) => {
    const count = shares.length;
    const share = files.map((file) => ({
      name: projectPath(file),
      url: pathToFileURL(join(projectRoot, compiledPath(file))).href,
    }));
    const entry = compiledPath(`shard-${index + 1}-of-${count}.test.mjs`);
    const runner = new URL('./helpers/shard.mjs', import.meta.url).href;
    writeFileSync(
      join(projectRoot, entry),
      `// Written by test/run-suite.mjs: ${share.length} in-process test files in one process.\n` +
        `import { runShard } from ${JSON.stringify(runner)};\n` +
        `await runShard(${JSON.stringify({ files: share, fileTimeoutMs: shardFileTimeoutMs, installedOnce }, null, 2)});\n`,
    );
    return entry;
  });
}

/**
 * node --test sorts the files it is given by path, so the order is kept by entry files whose names
 * sort in it: `.test-build/<pid>/queue-NNN--test--cli--memory.test.mjs` imports the compiled
 * test/cli/memory.test.ts (the reporter names the file back).
 */
function inOrder(entries) {
  const width = String(entries.length).length;
  return entries.map((entry, index) => {
    const place = String(index + 1).padStart(width, '0');
    const named = entry.endsWith('.mjs') ? entry.replace(/^.*[\\/]/, '').replace(/\.test\.mjs$/, '') : projectPath(entry).replace(/\.test\.ts$/, '').replaceAll('/', '--');
    const queued = compiledPath(`queue-${place}--${named}.test.mjs`);
    const target = pathToFileURL(join(projectRoot, entry.endsWith('.mjs') ? entry : compiledPath(entry))).href;
    writeFileSync(join(projectRoot, queued), `// Written by test/run-suite.mjs: place ${place} in the run.\nimport ${JSON.stringify(target)};\n`);
    return queued;
  });
}

// With shards: the longest file that starts processes first, beside the shards (CPU-bound, they
// fill the time it waits for its terminal and CLI runs), then the rest, longest first.
const toRun = sharding
  ? inOrder([...spawning.slice(0, 1), ...writeShards(), ...inProcess.filter((file) => !shardable.includes(file)), ...spawning.slice(1)])
  : files.map(compiledPath);

/**
 * Three processes at a time on this 2-core machine: a third of the time of the files that start
 * processes is spent waiting (a terminal drawing, a timeout running out, a server starting), and a
 * third runner slot fills it. Measured idle on Node 20: 115-119 s with two, 102-103 s with three,
 * 108 s with four (the CPU-bound shards then lose more than the waits give back).
 * SYLVAN_TEST_CONCURRENCY changes it.
 */
const concurrency = Number(process.env.SYLVAN_TEST_CONCURRENCY ?? 3);

const child = spawn(
  process.execPath,
  [
    '--enable-source-maps',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${new URL('./helpers/file-times-reporter.mjs', import.meta.url).href}`,
    '--test-reporter-destination=stdout',
    `--test-concurrency=${concurrency}`,
    `--test-timeout=${fileTimeoutMs}`,
    ...nodeOptions,
    ...toRun,
  ],
  { cwd: projectRoot, stdio: 'inherit', env: { ...process.env, SYLVAN_TEST_MCP_SERVER: bundledTestMcpServer } },
);
// Ctrl-C reaches the test runner through the terminal's process group; a SIGTERM from CI is passed on.
process.on('SIGTERM', () => child.kill('SIGTERM'));
process.on('SIGINT', () => {});
child.on('error', (error) => {
  console.error(`Could not start ${process.execPath}: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  removeCompiledTests();
  process.exit(code ?? (signal ? 1 : 0));
});
