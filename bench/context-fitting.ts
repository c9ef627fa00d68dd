import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelMessage, ToolSet } from 'ai';
import { ContextFitter } from '../src/agent/context/context-fitter.ts';
import { buildInstructions } from '../src/agent/instructions/instructions.ts';
import { builtInSpec } from '../src/tools/registry/built-in-specs.ts';
import { createTools } from '../src/tools/registry/create-tools.ts';
import { buildHistory, TurnFactory, turnMessages } from './history-fixture.ts';
import type { Row, Section } from './report.ts';
import { growingSection, measureGrowingConversation, measureHistoryHeap, memorySection } from './growing-conversation.ts';
import { collectGarbage, formatCount, formatMicroseconds, formatMs, formatRatio, median, timeSync } from './statistics.ts';

/** qwen-plus's window, the default a user gets. */
const REAL_WINDOW = 131_072;
/** Large enough that every message is kept, so a fit visits (and the first fit estimates) the whole history. */
const UNBOUNDED_WINDOW = 1_000_000_000;
const SIZES = [1_000, 10_000, 100_000] as const;
/**
 * Every sample fits this many messages in all: a hundred 1k histories, ten 10k ones, or one 100k one. Equal
 * work per sample means a busy machine (other processes on the 2 cores) slows every size alike, and the
 * sizes are interleaved round by round for the same reason.
 */
const MESSAGES_PER_SAMPLE = 100_000;
const ROUNDS = 5;
/** Linear growth makes 100k messages cost 100x what 1k cost; 120x leaves room for cache effects. */
const GROWTH_LIMIT = 120;

/** Each call makes a fitter for a new session: qwen-plus's 131k window, or one that keeps everything. */
interface Fitters {
  real: () => ContextFitter;
  unbounded: () => ContextFitter;
}

/**
 * Times `ContextFitter` on histories of 1k, 10k and 100k messages (first fit: every estimate computed;
 * repeat: one new turn appended, the rest cached), a 300-turn conversation fitted step by step as the
 * runtime does, and the heap all this holds.
 */
export function measureContextFitting(): Section[] {
  const workspace = mkdtempSync(join(tmpdir(), 'sylvan-bench-fit-'));
  try {
    const tools: ToolSet = createTools({ workspaceRoot: workspace, weather: 'sample', secretPatterns: [], toolTimeoutMs: 60_000 });
    const instructions = buildInstructions({ workspaceRoot: workspace, tools: Object.keys(tools).map((name) => builtInSpec(name) ?? { name }) });
    const fitters: Fitters = {
      real: () => new ContextFitter(REAL_WINDOW, instructions, tools),
      unbounded: () => new ContextFitter(UNBOUNDED_WINDOW, instructions, tools),
    };
    // Memory first, while the estimate cache (a WeakMap that does not shrink at once) is still small.
    const memory = measureHistoryHeap(fitters.unbounded, 16_000);
    warmUp(fitters);
    const scaling = measureScaling(fitters);
    const growing = measureGrowingConversation(fitters.real);
    return [scalingSection(scaling), growingSection(growing), memorySection(growing, memory)];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** Lets the JIT optimise the estimate and fit paths before anything is timed. */
function warmUp(fitters: Fitters): void {
  for (let round = 0; round < 4; round++) {
    for (const makeFitter of [fitters.unbounded, fitters.real]) {
      const history = buildHistory(2_000, 90 + round);
      const fitter = makeFitter();
      fitter.fit(history);
      history.push(...turnMessages(new TurnFactory(round).next()));
      fitter.fit(history);
    }
  }
}

/** Histories of one size that together hold about `MESSAGES_PER_SAMPLE` messages, each with its own fitter. */
interface Batch {
  histories: ModelMessage[][];
  fitters: ContextFitter[];
  messages: number;
}

function makeBatch(size: number, seed: number, makeFitter: () => ContextFitter): Batch {
  const histories = Array.from({ length: Math.max(1, Math.round(MESSAGES_PER_SAMPLE / size)) }, (_, index) =>
    buildHistory(size, seed * 100 + index),
  );
  return {
    histories,
    fitters: histories.map(() => makeFitter()),
    messages: histories.reduce((total, history) => total + history.length, 0),
  };
}

/** Milliseconds to fit every history of the batch once. */
function fitBatch(batch: Batch): number {
  collectGarbage();
  return timeSync(() => {
    batch.histories.forEach((history, index) => batch.fitters[index]?.fit(history));
  });
}

interface SizeTiming {
  size: number;
  /** Median per-history milliseconds and per-message microseconds. */
  firstMs: number;
  firstMicroseconds: number;
  repeatMs: number;
  repeatMicroseconds: number;
}

interface ScalingResult {
  sizes: SizeTiming[];
  realFirstMs: number;
  realRepeatMs: number;
}

function measureScaling(fitters: Fitters): ScalingResult {
  const first = new Map<number, { ms: number[]; microseconds: number[] }>(SIZES.map((size) => [size, { ms: [], microseconds: [] }]));
  const repeat = new Map<number, { ms: number[]; microseconds: number[] }>(SIZES.map((size) => [size, { ms: [], microseconds: [] }]));
  const record = (into: typeof first, batch: Batch, size: number, ms: number) => {
    into.get(size)?.ms.push(ms / batch.histories.length);
    into.get(size)?.microseconds.push((ms * 1000) / batch.messages);
  };
  const realFirst: number[] = [];
  const realRepeat: number[] = [];

  // First fits: fresh histories every round, since estimates are cached per message object.
  let lastBatches = new Map<number, Batch>();
  let lastReal: Batch | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    lastBatches = new Map();
    for (const size of SIZES) {
      const batch = makeBatch(size, size + round, fitters.unbounded);
      record(first, batch, size, fitBatch(batch));
      lastBatches.set(size, batch);
    }
    lastReal = makeBatch(SIZES[SIZES.length - 1] as number, 7_000 + round, fitters.real);
    realFirst.push(fitBatch(lastReal));
  }

  // Repeat fits: the last round's histories, one new turn appended to each before every round.
  const factory = new TurnFactory(1);
  const grow = (batch: Batch) => {
    for (const history of batch.histories) {
      const added = turnMessages(factory.next());
      history.push(...added);
      batch.messages += added.length;
    }
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const size of SIZES) {
      const batch = lastBatches.get(size) as Batch;
      grow(batch);
      record(repeat, batch, size, fitBatch(batch));
    }
    if (lastReal) {
      grow(lastReal);
      realRepeat.push(fitBatch(lastReal));
    }
  }

  return {
    sizes: SIZES.map((size) => ({
      size,
      firstMs: median(first.get(size)?.ms ?? []),
      firstMicroseconds: median(first.get(size)?.microseconds ?? []),
      repeatMs: median(repeat.get(size)?.ms ?? []),
      repeatMicroseconds: median(repeat.get(size)?.microseconds ?? []),
    })),
    realFirstMs: median(realFirst),
    realRepeatMs: median(realRepeat),
  };
}

function scalingSection(scaling: ScalingResult): Section {
  const small = scaling.sizes[0] as SizeTiming;
  const large = scaling.sizes[scaling.sizes.length - 1] as SizeTiming;
  const firstRatio = large.firstMs / small.firstMs;
  const repeatRatio = large.repeatMs / small.repeatMs;
  const cell = (ms: number, microseconds: number) => `${formatMs(ms)}  (${formatMicroseconds(microseconds)}/msg)`;
  const rows: Row[] = scaling.sizes.flatMap((timing) => [
    { measure: `${formatCount(timing.size)} msgs: first fit`, result: cell(timing.firstMs, timing.firstMicroseconds) },
    { measure: `${formatCount(timing.size)} msgs: fit after +1 turn`, result: cell(timing.repeatMs, timing.repeatMicroseconds) },
  ]);
  const largest = formatCount(large.size);
  rows.push(
    {
      measure: `first fit, ${largest} vs 1,000 msgs`,
      result: formatRatio(firstRatio),
      target: `<= ${GROWTH_LIMIT}x (linear: 100x)`,
      passed: firstRatio <= GROWTH_LIMIT,
    },
    {
      measure: `fit after +1 turn, ${largest} vs 1,000 msgs`,
      result: formatRatio(repeatRatio),
      target: `<= ${GROWTH_LIMIT}x (linear: 100x)`,
      passed: repeatRatio <= GROWTH_LIMIT,
    },
    { measure: `${largest} msgs, 131k window: first fit`, result: formatMs(scaling.realFirstMs) },
    { measure: `${largest} msgs, 131k window: fit after +1 turn`, result: formatMs(scaling.realRepeatMs) },
  );
  return {
    title: `Context fitting: ContextFitter.fit with the real tools and instructions (median of ${ROUNDS})`,
    rows,
    notes: [
      'sizes 1k-100k use a 1e9-token window, so every message is kept and visited; times are per history.',
      'first fit: fresh histories, every per-message estimate computed; +1 turn: the rest come from the cache.',
      'the 131k window (qwen-plus) stops at the first turn that does not fit, so its cost is bounded by the window.',
    ],
  };
}
