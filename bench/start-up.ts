import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './context.ts';
import type { Section } from './report.ts';
import { formatMegabytes, formatMs, formatRatio, median } from './statistics.ts';

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
 * Writes every file module the process resolves to stdout as it resolves it, so its place relative to
 * the banner shows what loaded before the banner. `registerHooks` (synchronous, in-thread) needs Node 22.15+.
 */
const MODULE_PROBE = `data:text/javascript,${encodeURIComponent(
  "import{registerHooks}from'node:module';registerHooks({resolve(s,c,n){const r=n(s,c);if(r.url.startsWith('file:'))process.stdout.write('bench-module '+r.url+'\\n');return r;}});",
)}`;
/** What must never load before the banner: the SDK, its providers, the schema library. */
const HEAVY_PACKAGE = /^(ai|@ai-sdk\/.*|zod)$/;
const packageIn = (path: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];

/**
 * Packages whose code ran before the banner line, or undefined when the probe could not run: those
 * resolved from node_modules, and those esbuild bundled into a dist/ file that loaded (it names each
 * bundled source file in a `// node_modules/...` comment).
 */
function packagesBeforeBanner(stdout: string): string[] | undefined {
  const lines = stdout.split('\n');
  const bannerAt = lines.findIndex((line) => line.startsWith('Sylvan v'));
  const probed = lines.some((line) => line.startsWith('bench-module '));
  if (bannerAt < 0 || !probed) return undefined;
  const names = new Set<string>();
  for (const line of lines.slice(0, bannerAt)) {
    if (!line.startsWith('bench-module ')) continue;
    const path = fileURLToPath(line.slice('bench-module '.length));
    const direct = packageIn(path);
    if (direct !== undefined) names.add(direct);
    else if (/[/\\]dist[/\\][^/\\]+\.js$/.test(path)) {
      for (const match of readFileSync(path, 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) names.add(match[1] as string);
    }
  }
  return [...names];
}

function peakRss(run: ProcessRun): number | undefined {
  const match = /bench-max-rss-kb=(\d+)/.exec(run.stderr);
  return match ? Number(match[1]) * 1024 : undefined;
}

interface Subject {
  name: string;
  args: string[];
  stdin?: string;
  /** What stdout must contain, so a broken CLI never passes as a fast one. */
  expected?: string;
}

const VERSION_TARGET = 1.3;

/**
 * Whole processes of the built CLI (`node bin/sylvan.js`, which loads dist/) against a bare
 * `node -e 0`, interleaved round by round so that a busy moment hurts every subject alike; each
 * ratio is the median of the rounds' own ratios. Also which packages load before the banner.
 */
export async function measureStartUp(context: BenchContext): Promise<Section[]> {
  const { projectRoot, workspace, env, rounds } = context;
  const cli = join(projectRoot, 'bin', 'sylvan.js');
  const subjects: Subject[] = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: 'sylvan --version', args: [cli, '--version'], expected: '.' },
    { name: 'sylvan --help', args: [cli, '--help'], expected: 'Usage:' },
    { name: "printf 'exit\\n' | sylvan", args: [cli], stdin: 'exit\n', expected: 'Sylvan v' },
    { name: 'sylvan -p (one mock turn)', args: [cli, '-p', '(2+3)*4 等于多少？'], expected: '20' },
    { name: "node -e \"await import('ai')\"", args: ['--input-type=module', '-e', "await import('ai')"] },
  ];
  const check = (subject: Subject, run: ProcessRun) => {
    if (run.exitCode !== 0 || (subject.expected !== undefined && !run.stdout.includes(subject.expected))) {
      throw new Error(`${subject.name} failed (exit ${run.exitCode}): ${(run.stderr || run.stdout).trim().split('\n').slice(-3).join(' | ')}`);
    }
  };
  const cwdOf = (subject: Subject) => (subject.name.startsWith('node') ? projectRoot : workspace);

  const results = new Map<string, ProcessRun[]>(subjects.map((subject) => [subject.name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const subject of subjects) {
      const run = await runNode(subject.args, { cwd: cwdOf(subject), env, stdin: subject.stdin });
      check(subject, run);
      if (round > 0) results.get(subject.name)?.push(run);
    }
  }
  const rss = new Map<string, number | undefined>();
  for (const subject of subjects.slice(0, 2)) {
    rss.set(subject.name, peakRss(await runNode(['--import', RSS_PROBE, ...subject.args], { cwd: cwdOf(subject), env })));
  }
  const probe = await runNode(['--import', MODULE_PROBE, cli], { cwd: workspace, env, stdin: 'exit\n' });
  const beforeBanner = packagesBeforeBanner(probe.stdout);

  const runsOf = (name: string) => results.get(name) ?? [];
  const baselineRuns = runsOf('node -e 0');
  const ratioOf = (name: string) => median(runsOf(name).map((run, index) => run.exitMs / (baselineRuns[index]?.exitMs ?? Number.NaN)));
  const cell = (name: string) => `${formatMs(median(runsOf(name).map((run) => run.exitMs)))}  ${formatRatio(ratioOf(name))} node -e 0`;
  const versionRatio = ratioOf('sylvan --version');
  const peak = (name: string) => {
    const bytes = rss.get(name);
    return bytes === undefined ? 'n/a' : formatMegabytes(bytes);
  };

  return [
    {
      title: `Start-up, whole process, built CLI (median of ${rounds} paired runs, piped stdio, mock model)`,
      rows: [
        { measure: 'node -e 0 (reference)', result: formatMs(median(baselineRuns.map((run) => run.exitMs))) },
        { measure: 'sylvan --version', result: cell('sylvan --version'), target: `<= ${VERSION_TARGET}x`, passed: versionRatio <= VERSION_TARGET },
        ...subjects.slice(2).map((subject) => ({ measure: subject.name, result: cell(subject.name) })),
        { measure: 'peak RSS: node -e 0 / sylvan --version', result: `${peak('node -e 0')} / ${peak('sylvan --version')}` },
        beforeBanner === undefined
          ? { measure: 'packages loaded before the banner', result: 'n/a (needs module.registerHooks, Node 22.15+)' }
          : {
              measure: 'packages loaded before the banner',
              result: beforeBanner.join(', ') || 'none',
              target: 'no ai, @ai-sdk/*, zod',
              passed: !beforeBanner.some((name) => HEAVY_PACKAGE.test(name)),
            },
      ],
      notes: ['the piped REPL loads the runtime right after the banner, so its exit time includes the SDK.'],
    },
  ];
}
