import { join } from 'node:path';
import type { BenchContext } from './context.ts';
import type { Section } from './report.ts';
import { formatMegabytes, formatMs, formatRatio, median } from './statistics.ts';
import { residentBytes, settled, startTerminal } from './terminal.ts';

const PROMPT = '› ';
const TIME_TARGET = 1.5;
const RSS_TARGET_MB = 60;

/** A bare node that draws the same prompt and waits: the floor for both time and memory. */
const BARE_PROMPT = ['-e', `process.stdout.write(${JSON.stringify(PROMPT)}); setInterval(() => {}, 60_000)`];

interface Sample {
  promptMs: number;
  rssAtPrompt?: number;
  rssSettled?: number;
}

async function sample(context: BenchContext, args: readonly string[]): Promise<Sample> {
  const terminal = startTerminal([process.execPath, ...args], { cwd: context.workspace, env: context.env });
  try {
    const shown = await terminal.waitFor(PROMPT, 0, 20_000);
    const pid = await terminal.pid();
    const rssAtPrompt = residentBytes(pid);
    await settled(pid);
    return { promptMs: shown - terminal.startedAt, rssAtPrompt, rssSettled: residentBytes(pid) };
  } finally {
    await terminal.close();
  }
}

/**
 * Spawn → prompt drawn, on a pseudo-terminal (util-linux `script`), against a bare node drawing the
 * same prompt in the same kind of terminal, interleaved round by round; and the resident memory of
 * each at that moment and once idle at the prompt (Sylvan loads its runtime right after the prompt).
 */
export async function measureTimeToPrompt(context: BenchContext): Promise<Section[]> {
  const cli = join(context.projectRoot, 'bin', 'sylvan.js');
  const bare: Sample[] = [];
  const sylvan: Sample[] = [];
  for (let round = 0; round <= context.rounds; round++) {
    const bareRun = await sample(context, BARE_PROMPT);
    const sylvanRun = await sample(context, [cli]);
    if (round === 0) continue; // warms the file cache and the compile cache
    bare.push(bareRun);
    sylvan.push(sylvanRun);
  }
  const ratios = sylvan.map((run, index) => run.promptMs / (bare[index]?.promptMs ?? Number.NaN));
  const ratio = median(ratios);
  const mb = (runs: Sample[], key: 'rssAtPrompt' | 'rssSettled') => median(runs.map((run) => run[key] ?? Number.NaN));
  const atPrompt = mb(sylvan, 'rssAtPrompt');
  const idle = mb(sylvan, 'rssSettled');
  return [
    {
      title: `Time to the prompt on a pseudo-terminal (median of ${context.rounds} paired runs)`,
      rows: [
        { measure: 'node drawing a prompt (reference)', result: formatMs(median(bare.map((run) => run.promptMs))) },
        {
          measure: 'sylvan: spawn -> prompt',
          result: `${formatMs(median(sylvan.map((run) => run.promptMs)))}  ${formatRatio(ratio)} node`,
          target: `<= ${TIME_TARGET}x`,
          passed: ratio <= TIME_TARGET,
        },
      ],
      notes: ['the ratio is the median of each round\'s own ratio, so a busy moment counts against both alike.'],
    },
    {
      title: `Resident memory at the prompt (VmRSS, median of ${context.rounds})`,
      rows: [
        { measure: 'node at a prompt (reference)', result: formatMegabytes(mb(bare, 'rssAtPrompt')) },
        {
          measure: 'sylvan: as the prompt is drawn',
          result: `${formatMegabytes(atPrompt)}  ${formatRatio(atPrompt / mb(bare, 'rssAtPrompt'))} node`,
          target: `<= ${RSS_TARGET_MB} MB`,
          passed: atPrompt <= RSS_TARGET_MB * 1024 * 1024,
        },
        { measure: 'sylvan: idle at the prompt, runtime loaded', result: formatMegabytes(idle) },
      ],
      notes: ['the runtime (SDK, provider, tools) loads right after the prompt is drawn, while the user types.'],
    },
  ];
}
