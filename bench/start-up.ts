import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Section } from './report.ts';
import { formatMs, median } from './statistics.ts';

/** One process from spawn to exit. */
export interface ProcessRun {
  /** Milliseconds from spawn until the first stdout line ending in a newline; undefined if none came. */
  firstLineMs: number | undefined;
  exitMs: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, which is then closed. */
  stdin?: string;
  timeoutMs?: number;
}

/** Spawns `node ...args` (this node binary) and times it; rejects only when it cannot start or hangs. */
export function runNode(args: readonly string[], options: RunOptions): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let firstLineMs: number | undefined;
    let exitMs = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} did not exit within ${options.timeoutMs ?? 20_000} ms`));
    }, options.timeoutMs ?? 20_000);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (firstLineMs === undefined && stdout.includes('\n')) firstLineMs = performance.now() - start;
    });
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', () => (exitMs = performance.now() - start));
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ firstLineMs, exitMs, exitCode, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** Prints the peak RSS (kilobytes) on stderr as the process exits; loaded with --import, only in the RSS runs. */
const RSS_PROBE = `data:text/javascript,${encodeURIComponent(
  "import{writeSync}from'node:fs';process.on('exit',()=>writeSync(2,'\\nbench-max-rss-kb='+process.resourceUsage().maxRSS+'\\n'))",
)}`;

/**
 * Writes every package the process resolves to stdout as it resolves it, so its place relative to the
 * banner shows what loaded before the banner. `registerHooks` (synchronous, in-thread) needs Node 22.15+.
 */
const PACKAGE_PROBE = `data:text/javascript,${encodeURIComponent(
  "import{registerHooks}from'node:module';registerHooks({resolve(s,c,n){const r=n(s,c);const m=/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(r.url);if(m)process.stdout.write('bench-package '+m[1]+'\\n');return r;}});",
)}`;
/** What must never load before the banner: the SDK, its providers, the schema library. */
const HEAVY_PACKAGE = /^(ai|@ai-sdk\/.*|zod)$/;

/** Packages resolved before the banner line, in order, or undefined when the probe could not run. */
function packagesBeforeBanner(stdout: string): string[] | undefined {
  const lines = stdout.split('\n');
  const bannerAt = lines.findIndex((line) => line.startsWith('Sylvan v'));
  const probed = lines.some((line) => line.startsWith('bench-package '));
  if (bannerAt < 0 || !probed) return undefined;
  const names = lines.slice(0, bannerAt).filter((line) => line.startsWith('bench-package ')).map((line) => line.slice('bench-package '.length));
  return [...new Set(names)];
}

function peakRss(run: ProcessRun): number | undefined {
  const match = /bench-max-rss-kb=(\d+)/.exec(run.stderr);
  return match ? Number(match[1]) * 1024 : undefined;
}

interface Subject {
  name: string;
  args: string[];
  cwd: string;
  stdin?: string;
  /** Throws when the run did not do what it should, so a broken CLI never passes as a fast one. */
  check: (run: ProcessRun) => void;
}

/**
 * Time to banner must stay under `node -e 0` plus this. Measured on this 2-core machine while other
 * test suites shared it: the banner comes 35-100 ms after a bare node start (resolving and compiling
 * config, readline, chalk, dotenv and the ui modules), so 200 ms is twice that. `import('ai')` alone
 * costs another 80-130 ms, so the SDK landing on the start-up path would push the banner close to
 * the limit; the package probe catches that regression exactly, whatever the machine's load.
 */
const BANNER_OVERHEAD_TARGET_MS = 200;
/** `--help` returns before any runtime is loaded; measured 45-110 ms over a bare start, the same reasoning. */
const HELP_OVERHEAD_TARGET_MS = 200;
/**
 * `-p` loads the whole runtime (SDK, provider, tools) and runs one mock turn with no streaming delay:
 * measured 220-430 ms over a bare node start on the busy machine, so 800 ms is about twice that.
 */
const PRINT_OVERHEAD_TARGET_MS = 800;

/**
 * Start-up of the built CLI (`node bin/sylvan.js`, which loads dist/), against a bare node start and a
 * bare `import('ai')`. Runs are interleaved so that a noisy moment hurts every subject alike.
 */
export async function measureStartUp(projectRoot: string, runs: number): Promise<Section[]> {
  const workspace = mkdtempSync(join(tmpdir(), 'sylvan-bench-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: workspace,
    SYLVAN_HOME: join(workspace, '.sylvan-home'),
    SYLVAN_MOCK_DELAY_MS: '0',
    SYLVAN_NO_NODE_WARNING: '1',
    NO_COLOR: '1',
  };
  const cli = join(projectRoot, 'bin', 'sylvan.js');
  const ok = (name: string, run: ProcessRun, expected?: string) => {
    if (run.exitCode !== 0 || (expected !== undefined && !run.stdout.includes(expected))) {
      throw new Error(`${name} failed (exit ${run.exitCode}): ${(run.stderr || run.stdout).trim().split('\n').slice(-3).join(' | ')}`);
    }
  };
  const subjects: Subject[] = [
    { name: 'node -e 0', args: ['-e', '0'], cwd: projectRoot, check: (run) => ok('node -e 0', run) },
    {
      name: "import('ai')",
      args: ['-e', "await import('ai')"],
      cwd: projectRoot,
      check: (run) => ok("node -e \"await import('ai')\"", run),
    },
    { name: 'sylvan (exit)', args: [cli], cwd: workspace, stdin: 'exit\n', check: (run) => ok('sylvan <<< exit', run, 'Sylvan v') },
    { name: 'sylvan --help', args: [cli, '--help'], cwd: workspace, check: (run) => ok('sylvan --help', run, 'Usage:') },
    {
      name: 'sylvan -p',
      args: [cli, '-p', '(2+3)*4 等于多少？'],
      cwd: workspace,
      check: (run) => ok('sylvan -p "(2+3)*4 等于多少？"', run, '20'),
    },
  ];

  try {
    const results = new Map<string, ProcessRun[]>(subjects.map((subject) => [subject.name, []]));
    // The first round warms the file cache and is not counted.
    for (let round = 0; round <= runs; round++) {
      for (const subject of subjects) {
        const run = await runNode(subject.args, { cwd: subject.cwd, env, stdin: subject.stdin });
        subject.check(run);
        if (round > 0) results.get(subject.name)?.push(run);
      }
    }
    const rss = new Map<string, number | undefined>();
    for (const subject of subjects) {
      const run = await runNode(['--import', RSS_PROBE, ...subject.args], { cwd: subject.cwd, env, stdin: subject.stdin });
      rss.set(subject.name, peakRss(run));
    }

    const probe = await runNode(['--import', PACKAGE_PROBE, cli], { cwd: workspace, env, stdin: 'exit\n' });
    const beforeBanner = packagesBeforeBanner(probe.stdout);

    const exitMedian = (name: string) => median((results.get(name) ?? []).map((run) => run.exitMs));
    const baseline = exitMedian('node -e 0');
    const aiImport = exitMedian("import('ai')");
    const banner = median((results.get('sylvan (exit)') ?? []).map((run) => run.firstLineMs ?? Number.NaN));
    const replExit = exitMedian('sylvan (exit)');
    const help = exitMedian('sylvan --help');
    const print = exitMedian('sylvan -p');
    const over = (ms: number) => `+${formatMs(ms - baseline)}`;
    const megabytes = (name: string) => {
      const bytes = rss.get(name);
      return bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    };

    return [
      {
        title: `Start-up, built CLI (median of ${runs} runs each, piped stdin, mock model)`,
        rows: [
          { measure: 'node -e 0 (baseline)', result: formatMs(baseline) },
          { measure: "node -e \"await import('ai')\"", result: `${formatMs(aiImport)} (${over(aiImport)})` },
          {
            measure: 'sylvan: spawn -> banner line',
            result: `${formatMs(banner)} (${over(banner)})`,
            target: `< baseline + ${BANNER_OVERHEAD_TARGET_MS} ms`,
            passed: banner - baseline < BANNER_OVERHEAD_TARGET_MS,
          },
          beforeBanner === undefined
            ? { measure: 'packages loaded before the banner', result: 'n/a (needs module.registerHooks, Node 22.15+)' }
            : {
                measure: 'packages loaded before the banner',
                result: beforeBanner.join(', ') || 'none',
                target: 'no ai, @ai-sdk/*, zod',
                passed: !beforeBanner.some((name) => HEAVY_PACKAGE.test(name)),
              },
          { measure: "sylvan: printf 'exit\\n' | sylvan -> exit", result: `${formatMs(replExit)} (${over(replExit)})` },
        ],
        notes: [
          'the piped REPL loads the runtime right after the banner, so its exit time includes the SDK.',
        ],
      },
      {
        title: `One-shot commands (median of ${runs} runs, SYLVAN_MOCK_DELAY_MS=0)`,
        rows: [
          {
            measure: 'sylvan --help',
            result: `${formatMs(help)} (${over(help)})`,
            target: `< baseline + ${HELP_OVERHEAD_TARGET_MS} ms`,
            passed: help - baseline < HELP_OVERHEAD_TARGET_MS,
          },
          {
            measure: 'sylvan -p "(2+3)*4 ..." (one mock turn)',
            result: `${formatMs(print)} (${over(print)})`,
            target: `< baseline + ${PRINT_OVERHEAD_TARGET_MS} ms`,
            passed: print - baseline < PRINT_OVERHEAD_TARGET_MS,
          },
        ],
      },
      {
        title: 'Peak RSS of the process (one run each, process.resourceUsage().maxRSS)',
        rows: [
          { measure: 'node -e 0', result: megabytes('node -e 0') },
          { measure: "node -e \"await import('ai')\"", result: megabytes("import('ai')") },
          { measure: 'sylvan --help', result: megabytes('sylvan --help') },
          { measure: "printf 'exit\\n' | sylvan", result: megabytes('sylvan (exit)') },
          { measure: 'sylvan -p (one mock turn)', result: megabytes('sylvan -p') },
        ],
      },
    ];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
