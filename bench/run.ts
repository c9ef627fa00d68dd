/**
 * `npm run bench`: each measurement beside its reference in the same run (ratios of medians over
 * paired, interleaved runs), printed as one table and written to bench/results.md with the machine.
 * Offline (the only servers are on 127.0.0.1). Targets are reported, never enforced: the exit code
 * says only whether the benchmark could run (0) or not (2: build failed, the CLI misbehaved).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createContext, type BenchContext } from './context.ts';
import { measureContextCache } from './context-cache.ts';
import { measureContextFitting } from './context-fitting.ts';
import { measureEnterToRequest } from './enter-to-request.ts';
import { measureLongSession } from './long-session.ts';
import { measureLoopOverhead } from './loop-overhead.ts';
import { measureLoopbackTurns } from './loopback-turns.ts';
import { measureMcpStartUp } from './mcp-start-up.ts';
import { describeMachine } from './machine.ts';
import { measureOtherAgents } from './other-agents.ts';
import { formatReport, missedTargets, type Section } from './report.ts';
import { measureStartUp } from './start-up.ts';
import { measureSubagents } from './subagents.ts';
import { measureStreaming } from './streaming.ts';
import { formatMs } from './statistics.ts';
import { measureTimeToPrompt } from './time-to-prompt.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.SYLVAN_BENCH_ROUNDS ?? 7);
const LOOPBACK_TURNS = 50;

/** The report, in order: one entry per measurement file. Add a line here for a new measurement. */
const MEASUREMENTS: { label: string; measure: (context: BenchContext) => Section | Section[] | Promise<Section | Section[]> }[] = [
  { label: 'start-up of whole processes', measure: measureStartUp },
  { label: 'time to the prompt on a pseudo-terminal', measure: measureTimeToPrompt },
  { label: 'start-up with two MCP servers configured', measure: (context) => measureMcpStartUp(context.projectRoot, context.rounds) },
  { label: 'Enter -> first request byte', measure: measureEnterToRequest },
  { label: "agent loop vs the seed's loop, 1,000 steps", measure: measureLoopOverhead },
  { label: 'context fitting at 1k, 10k, 100k messages', measure: () => measureContextFitting() },
  { label: 'streaming answers to a terminal', measure: measureStreaming },
  { label: 'a long session of 300 turns', measure: measureLongSession },
  { label: `${LOOPBACK_TURNS} full turns on a loopback server`, measure: () => measureLoopbackTurns(LOOPBACK_TURNS) },
  { label: 'DashScope context cache: 60 turns billed by the cache rules', measure: () => measureContextCache() },
  { label: 'subagents: a fork\'s cache share, three at once', measure: () => measureSubagents() },
  { label: 'other agents on the PATH', measure: measureOtherAgents },
];

/** `npm run bench -- prompt loop`: only the measurements whose label holds one of the words. */
const only = process.argv.slice(2).map((word) => word.toLowerCase());
const selected = only.length === 0 ? MEASUREMENTS : MEASUREMENTS.filter(({ label }) => only.some((word) => label.toLowerCase().includes(word)));

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

function summary(sections: readonly Section[]): string {
  const missed = missedTargets(sections);
  if (missed.length === 0) return 'All targets met.';
  return [
    `${missed.length} target${missed.length === 1 ? '' : 's'} missed (reported, not enforced):`,
    ...missed.map(({ section, row }) => `  - ${row.measure}: ${row.result} (target ${row.target}) [${section}]`),
  ].join('\n');
}

async function main(): Promise<number> {
  const started = performance.now();
  const machineBefore = describeMachine();
  const sections: Section[] = [];
  const context = createContext(projectRoot, ROUNDS, progress);
  try {
    progress('npm run build …');
    progress(`built in ${formatMs(build())}`);
    if (selected.length === 0) throw new Error(`no measurement matches ${only.join(' ')}; labels: ${MEASUREMENTS.map(({ label }) => label).join('; ')}`);
    for (const { label, measure } of selected) {
      progress(`${label} …`);
      const measured = await measure(context);
      sections.push(...(Array.isArray(measured) ? measured : [measured]));
    }
  } catch (error) {
    if (sections.length > 0) process.stdout.write(`${formatReport(sections)}\n`);
    process.stderr.write(`bench: could not finish: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    context.dispose();
  }

  const report = formatReport(sections);
  const footer = [
    `Machine: ${machineBefore}`,
    `Load average after: ${describeMachine({ loadOnly: true })}`,
    `Finished in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    summary(sections),
  ].join('\n');
  process.stdout.write(`\n${report}\n${footer}\n`);
  // A partial run is for looking at one number: the file keeps the last whole run.
  if (selected !== MEASUREMENTS) return 0;
  const file = new URL('./results.md', import.meta.url);
  writeFileSync(
    file,
    `# Sylvan benchmark results\n\nWritten by \`npm run bench\` on ${new Date().toISOString()}. Ratios are medians of paired, interleaved runs in this one run.\n\n\`\`\`\n${report}\n${footer}\n\`\`\`\n`,
  );
  progress(`wrote ${fileURLToPath(file)}`);
  return 0;
}

process.exitCode = await main();
