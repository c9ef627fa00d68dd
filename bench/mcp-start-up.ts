import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanCliEnvironment } from '../test/helpers/cli-environment.ts';
import type { Section } from './report.ts';
import { runNode, type ProcessRun } from './start-up.ts';
import { formatMs, median } from './statistics.ts';

/** Start-up with servers configured may be at most this much slower than without (issue 14). */
const ALLOWED_SLOWDOWN = 0.1;

/**
 * Start-up of the built CLI with two MCP servers configured (server-everything and
 * server-filesystem over stdio, the devDependencies) against the same CLI without: the servers
 * start in the background after the prompt, so the banner must not wait for them. Runs are
 * interleaved so a noisy moment hurts both alike. `sylvan -p` is shown too: print mode waits
 * (bounded) for configured servers, so it pays their start.
 */
export async function measureMcpStartUp(projectRoot: string, runs: number): Promise<Section> {
  const root = mkdtempSync(join(tmpdir(), 'sylvan-bench-mcp-'));
  const modules = join(projectRoot, 'node_modules', '@modelcontextprotocol');
  const plain = join(root, 'plain');
  const withServers = join(root, 'with-servers');
  for (const folder of [plain, withServers]) mkdirSync(join(folder, 'home'), { recursive: true });
  writeFileSync(
    join(withServers, 'home', 'settings.json'),
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [join(modules, 'server-everything', 'dist', 'index.js'), 'stdio'] },
        filesystem: { command: process.execPath, args: [join(modules, 'server-filesystem', 'dist', 'index.js'), withServers] },
      },
    }),
  );
  const env = (folder: string): Record<string, string> => ({ ...cleanCliEnvironment(folder), SYLVAN_HOME: join(folder, 'home') });
  const cli = join(projectRoot, 'bin', 'sylvan.js');
  const check = (name: string, run: ProcessRun, expected: string) => {
    if (run.exitCode !== 0 || !run.stdout.includes(expected)) {
      throw new Error(`${name} failed (exit ${run.exitCode}): ${(run.stderr || run.stdout).trim().split('\n').slice(-3).join(' | ')}`);
    }
  };
  try {
    const banner = { plain: [] as number[], withServers: [] as number[] };
    const exit = { plain: [] as number[], withServers: [] as number[] };
    const print = { plain: [] as number[], withServers: [] as number[] };
    for (let round = 0; round <= runs; round++) {
      for (const [key, folder] of [['plain', plain], ['withServers', withServers]] as const) {
        const repl = await runNode([cli], { cwd: folder, env: env(folder), stdin: 'exit\n' });
        check(`sylvan <<< exit (${key})`, repl, 'Sylvan v');
        const oneShot = await runNode([cli, '-p', '(2+3)*4 等于多少？'], { cwd: folder, env: env(folder), timeoutMs: 30_000 });
        check(`sylvan -p (${key})`, oneShot, '20');
        if (round === 0) continue;
        banner[key].push(repl.firstLineMs ?? Number.NaN);
        exit[key].push(repl.exitMs);
        print[key].push(oneShot.exitMs);
      }
    }
    const plainBanner = median(banner.plain);
    const serversBanner = median(banner.withServers);
    const slowdown = serversBanner / plainBanner - 1;
    return {
      title: `Start-up with two MCP servers configured (median of ${runs} runs, stdio: everything + filesystem)`,
      rows: [
        { measure: 'sylvan: spawn -> banner, no servers', result: formatMs(plainBanner) },
        {
          measure: 'sylvan: spawn -> banner, two servers',
          result: `${formatMs(serversBanner)} (${slowdown >= 0 ? '+' : ''}${(slowdown * 100).toFixed(1)}%)`,
          target: `within ${ALLOWED_SLOWDOWN * 100}% of no servers`,
          passed: slowdown <= ALLOWED_SLOWDOWN,
        },
        { measure: "printf 'exit\\n' | sylvan -> exit, no servers", result: formatMs(median(exit.plain)) },
        { measure: "printf 'exit\\n' | sylvan -> exit, two servers", result: formatMs(median(exit.withServers)) },
        { measure: 'sylvan -p (one mock turn), no servers', result: formatMs(median(print.plain)) },
        { measure: 'sylvan -p (one mock turn), two servers', result: formatMs(median(print.withServers)) },
      ],
      notes: [
        'servers start after the prompt; the piped REPL exits at once, closing servers still starting.',
        'print mode waits for configured servers (at most SYLVAN_MCP_START_TIMEOUT, 10 s), so -p pays their start.',
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
