import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { cleanCliEnvironment } from '../helpers/cli.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The files of the project's current build (the record the build writes beside them), copied into `dist`. */
function copyProjectBuild(dist: string): void {
  const record = join(projectRoot, 'dist', '.build-inputs.json');
  assert.ok(existsSync(record), 'dist/ has no record of its build: run the tests with `npm test`, which builds first');
  const outputs = Object.keys((JSON.parse(readFileSync(record, 'utf8')) as { outputs: Record<string, string> }).outputs);
  assert.ok(outputs.includes('cli.js') && outputs.includes('config.js'), `the record names the build's entries: ${outputs.join(', ')}`);
  mkdirSync(dist);
  for (const file of outputs) cpSync(join(projectRoot, 'dist', file), join(dist, file));
}

const version = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * A temp copy of the package, as npm installs it: bin/, package.json and the build `npm test` made
 * before any test ran (test/run-suite.mjs; the files its record names, scripts/build-inputs.mjs), so
 * a dependency that does not survive bundling fails here rather than for a user. The tests below
 * rebuild it and then take it apart, which the project's own dist/ must never see.
 */
describe('the built CLI (bin/sylvan.js on the bundled dist/)', { timeout: 120_000 }, () => {
  let packageRoot = '';
  let workspace = '';
  const run = (args: string[], stdin = '') =>
    spawnSync(process.execPath, [join(packageRoot, 'bin', 'sylvan.js'), ...args], {
      cwd: workspace,
      input: stdin,
      encoding: 'utf8',
      timeout: 30_000,
      env: cleanCliEnvironment(workspace),
    });

  before(() => {
    packageRoot = mkdtempSync(join(tmpdir(), 'sylvan-built-'));
    workspace = join(packageRoot, 'workspace');
    mkdirSync(workspace);
    cpSync(join(projectRoot, 'bin'), join(packageRoot, 'bin'), { recursive: true });
    cpSync(join(projectRoot, 'package.json'), join(packageRoot, 'package.json'));
    symlinkSync(join(projectRoot, 'node_modules'), join(packageRoot, 'node_modules'), 'dir');
    copyProjectBuild(join(packageRoot, 'dist'));
  });
  after(() => rmSync(packageRoot, { recursive: true, force: true }));

  test('--version and -v print the package version and nothing else', () => {
    for (const flag of ['--version', '-v']) {
      const result = run([flag]);
      assert.equal(result.status, 0);
      assert.equal(result.stdout, `${version}\n`);
      assert.equal(result.stderr, '');
    }
  });

  test('--help prints the usage', () => {
    const result = run(['--help']);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^Usage: sylvan/);
  });

  test('a flag the fast path does not know still gets the usual error', () => {
    const result = run(['--version', '--nonsense']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--nonsense/);
  });

  test('print mode runs a whole mock turn with a tool through the bundled runtime', () => {
    const result = run(['-p', '(2+3)*4 等于多少？']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /20/);
    assert.match(result.stderr, /calculate/);
  });

  test('drawing the prompt loads one file: cli.js imports no chunk, the chunks it shared import from it', () => {
    const dist = join(packageRoot, 'dist');
    const cli = readFileSync(join(dist, 'cli.js'), 'utf8');
    assert.doesNotMatch(cli, /^import[^;]*from\s*["']\.\//m, 'cli.js still imports a chunk statically');
    const chunks = readdirSync(dist).filter((file) => file.endsWith('.js') && file !== 'cli.js');
    const importingCli = chunks.filter((file) => /from\s*"\.\/cli\.js"/.test(readFileSync(join(dist, file), 'utf8')));
    assert.ok(importingCli.length > 0, 'no chunk imports from cli.js: the folding did not run');
    // Each import of a chunk is one more file for Node to resolve and link after the prompt.
    const missing = chunks.flatMap((file) =>
      [...readFileSync(join(dist, file), 'utf8').matchAll(/(?:from|import\()\s*"\.\/([^"]+)"/g)].map((match) => match[1]!).filter((name) => !existsSync(join(dist, name))),
    );
    assert.deepEqual(missing, [], 'a chunk imports a file the build did not write');
  });

  test('a settings error found after the prompt is still one line and exit code 2 (one ConfigError class)', () => {
    // permissions are checked with zod in the runtime chunk; the CLI recognises its ConfigError only
    // if both chunks share one copy of errors.ts.
    const home = join(workspace, '.sylvan-home');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ permissions: { allow: ['Not A Key!'] } }));
    try {
      const result = run(['-p', 'hello']);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /settings\.json: permissions\.allow/);
      assert.doesNotMatch(result.stderr, /SYLVAN_DEBUG/);
    } finally {
      rmSync(join(home, 'settings.json'));
    }
  });

  test("search_files' worker runs from dist/ on its own", async () => {
    const file = join(workspace, 'notes.txt');
    writeFileSync(file, 'one\nneedle here\n');
    const worker = new Worker(join(packageRoot, 'dist', 'search-worker.js'), {
      workerData: { files: [{ absolutePath: file, displayPath: 'notes.txt' }], pattern: 'needle', flags: '', maxMatches: 10, maxFileBytes: 1_000_000, maxLineChars: 200 },
    });
    const messages: { type: string; line?: number }[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the built worker sent no "done" within 10 s')), 10_000);
        worker.on('message', (message: { type: string }) => {
          messages.push(message);
          if (message.type === 'done') {
            clearTimeout(timer);
            resolve();
          }
        });
        worker.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
    } finally {
      await worker.terminate();
    }
    assert.deepEqual(
      messages.filter((message) => message.type === 'match').map((message) => message.line),
      [2],
    );
  });

  test('the REPL shows its banner with the version and exits on "exit"', () => {
    const result = run([], 'exit\n');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`Sylvan v${version.replace(/\./g, '\\.')}`));
  });

  test('a rebuild never leaves dist/ half written, and keeps an earlier build\'s files for a running Sylvan', async () => {
    const dist = join(packageRoot, 'dist');
    const lazyChunks = [...new Set([...readFileSync(join(dist, 'cli.js'), 'utf8').matchAll(/import\("\.\/([\w-]+\.js)"\)/g)].map((match) => match[1]!))];
    assert.ok(lazyChunks.length > 5, 'cli.js loads its chunks lazily');
    const needed = ['cli.js', 'config.js', 'search-worker.js', ...lazyChunks];
    // A chunk of a build from a moment ago (a Sylvan started from it may still load it) and one from
    // two days ago.
    writeFileSync(join(dist, 'runtime-EARLIER1.js'), 'export {};\n');
    writeFileSync(join(dist, 'runtime-EARLIER2.js'), 'export {};\n');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(join(dist, 'runtime-EARLIER2.js'), twoDaysAgo, twoDaysAgo);

    const rebuild = spawn(process.execPath, [join(projectRoot, 'scripts', 'build.mjs'), dist], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    rebuild.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exit = new Promise<number | null>((resolve) => rebuild.on('exit', resolve));
    // What a CLI starting at any moment of the rebuild would look for, checked between every turn of
    // the event loop until the build has ended.
    let checks = 0;
    while (rebuild.exitCode === null && rebuild.signalCode === null) {
      const gone = needed.filter((file) => !existsSync(join(dist, file)));
      assert.deepEqual(gone, [], `during the rebuild dist/ lacked ${gone.join(', ')}`);
      checks += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(await exit, 0, `the rebuild failed: ${stderr}`);
    assert.ok(checks > 10, `dist/ was checked only ${checks} times during the rebuild`);
    assert.ok(existsSync(join(dist, 'runtime-EARLIER1.js')), "the earlier build's chunk was removed while a Sylvan may still need it");
    assert.ok(!existsSync(join(dist, 'runtime-EARLIER2.js')), "a two-day-old build's chunk was kept");
    assert.deepEqual(readdirSync(packageRoot).filter((name) => name.startsWith('dist.')), [], 'the staging folder was left behind');
    assert.equal(run(['-p', '(2+3)*4 等于多少？']).status, 0);

    // npm's prepack builds with --clean: a package ships this build's files only.
    const cleaned = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'build.mjs'), dist, '--clean'], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 });
    assert.equal(cleaned.status, 0, cleaned.stderr);
    assert.ok(!existsSync(join(dist, 'runtime-EARLIER1.js')), '--clean kept an earlier build\'s chunk');
    assert.ok(needed.every((file) => existsSync(join(dist, file))));
  });

  // Last: it takes the install apart. A chunk gone (a rebuild while Sylvan started) once said "the
  // build is missing", which sent a user to build what was there; dotenv gone gave a generic line.
  test('a part of the build gone is named in one line; the whole build gone says to build it', () => {
    const modules = join(packageRoot, 'node_modules');
    rmSync(modules);
    mkdirSync(modules);
    // dotenv, the one package left outside the bundle, loads when a folder has a .env.
    writeFileSync(join(workspace, '.env'), 'SYLVAN_MODEL=mock\n');
    const packageGone = run(['-p', 'hello']);
    rmSync(join(workspace, '.env'));
    rmSync(modules, { recursive: true });
    symlinkSync(join(projectRoot, 'node_modules'), modules, 'dir');
    assert.equal(packageGone.status, 1);
    assert.match(packageGone.stderr, /^sylvan: the package dotenv is missing from node_modules\. Run `npm install` in the Sylvan folder\.\n$/);

    const runtimeChunk = /import\("\.\/(create-runtime-\w+\.js)"\)/.exec(readFileSync(join(packageRoot, 'dist', 'cli.js'), 'utf8'))?.[1];
    assert.ok(runtimeChunk, 'the runtime is a chunk of its own');
    rmSync(join(packageRoot, 'dist', runtimeChunk));
    const partGone = run(['-p', 'hello']);
    assert.equal(partGone.status, 1);
    assert.equal(partGone.stderr, `sylvan: ${join(packageRoot, 'dist', runtimeChunk)} is missing from the build. Run \`npm install\` (or \`npm run build\`) in the Sylvan folder again.\n`);

    rmSync(join(packageRoot, 'dist'), { recursive: true });
    const allGone = run(['-p', 'hello']);
    assert.equal(allGone.status, 1);
    assert.equal(allGone.stderr, 'sylvan: the build is missing. Run `npm install` (or `npm run build`) in the Sylvan folder first.\n');
  });
});
