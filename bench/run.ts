/**
 * `npm run bench`: start-up, context fitting, memory and full loopback turns, printed as one table.
 * Offline (the only server is on 127.0.0.1), about 30 s on 2 cores. Exits 1 when a target is missed,
 * naming each one, and 2 when the benchmark itself could not run (build failed, the CLI misbehaved).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { measureContextFitting } from './context-fitting.ts';
import { measureLoopbackTurns } from './loopback-turns.ts';
import { measureMcpStartUp } from './mcp-start-up.ts';
import { formatReport, missedTargets, type Section } from './report.ts';
import { measureStartUp } from './start-up.ts';
import { formatMs } from './statistics.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const START_UP_RUNS = 7;
const LOOPBACK_TURNS = 50;

const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Builds dist/ every time: timing a stale build would measure yesterday's code. */
function build(): number {
  const start = performance.now();
  // Under `npm run`, npm_execpath names npm's own script; otherwise npm is on PATH beside node.
  const npmScript = process.env.npm_execpath;
  const result = npmScript
    ? spawnSync(process.execPath, [npmScript, 'run', 'build', '--silent'], { cwd: projectRoot, encoding: 'utf8' })
    : spawnSync('npm', ['run', 'build', '--silent'], { cwd: projectRoot, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`npm run build failed: ${(result.error?.message ?? `${result.stdout}${result.stderr}`).trim()}`);
  }
  return performance.now() - start;
}

async function main(): Promise<number> {
  const started = performance.now();
  const sections: Section[] = [];
  try {
    progress('npm run build …');
    progress(`built in ${formatMs(build())}`);
    progress(`start-up: ${START_UP_RUNS + 1} rounds of 5 commands (the first a warm-up) …`);
    sections.push(...(await measureStartUp(projectRoot, START_UP_RUNS)));
    progress(`start-up with two MCP servers: ${START_UP_RUNS + 1} rounds …`);
    sections.push(await measureMcpStartUp(projectRoot, START_UP_RUNS));
    progress('context fitting and memory …');
    sections.push(...measureContextFitting());
    progress(`${LOOPBACK_TURNS} full turns against a loopback DashScope server …`);
    sections.push(await measureLoopbackTurns(LOOPBACK_TURNS));
  } catch (error) {
    if (sections.length > 0) process.stdout.write(`${formatReport(sections)}\n`);
    process.stderr.write(`bench: could not finish: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }

  process.stdout.write(`\n${formatReport(sections)}\n`);
  process.stdout.write(`Node ${process.version} · ${process.platform}/${process.arch} · finished in ${(
    (performance.now() - started) / 1000
  ).toFixed(1)} s\n`);
  const missed = missedTargets(sections);
  if (missed.length === 0) {
    process.stdout.write('All targets met.\n');
    return 0;
  }
  process.stdout.write(`${missed.length} target${missed.length === 1 ? '' : 's'} missed:\n`);
  for (const { section, row } of missed) {
    process.stdout.write(`  - ${row.measure}: ${row.result} (target ${row.target}) [${section}]\n`);
  }
  return 1;
}

process.exitCode = await main();
