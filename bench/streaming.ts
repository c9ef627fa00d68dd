import { join } from 'node:path';
import { startDashScopeServer, text } from '../test/helpers/dashscope-server.ts';
import { codeBlockAnswer, ordinaryMarkdown } from './answers.ts';
import type { BenchContext } from './context.ts';
import { startRelay } from './relay.ts';
import type { Row, Section } from './report.ts';
import { formatMs, formatRatio, median } from './statistics.ts';
import { cpuTicks, settled, startTerminal } from './terminal.ts';

const CHUNK_BYTES = 20;
const END = 'END-OF-ANSWER';
const SIZE = { columns: 120, rows: 40 };
const TICK_MS = 10;

interface Run {
  /** CPU of the process from Enter until it is idle at the prompt again. */
  cpuMs: number;
  /** The last byte of the answer reaching the process → the prompt on the screen. */
  tailMs: number;
  /** Bytes the terminal received from Enter to the prompt. */
  bytes: number;
}

interface Case {
  label: string;
  answer: string;
}

/** One answer streamed to one fresh process in a 120×40 colour pseudo-terminal. */
async function streamOnce(context: BenchContext, command: readonly string[], answer: string): Promise<Run> {
  const server = await startDashScopeServer({ respond: () => text(answer, { chunkSize: CHUNK_BYTES }) });
  const relay = await startRelay(new URL(server.baseURL));
  const env: Record<string, string> = {
    ...context.env,
    DASHSCOPE_API_KEY: 'sk-bench',
    DASHSCOPE_BASE_URL: `http://127.0.0.1:${relay.port}/compatible-mode/v1`,
  };
  delete env.NO_COLOR;
  const terminal = startTerminal(command, { cwd: context.projectRoot, env, size: SIZE });
  try {
    await terminal.waitFor('› ', 0, 20_000);
    const pid = await terminal.pid();
    await settled(pid, 250);
    const mark = terminal.screen().length;
    const before = cpuTicks(pid) ?? Number.NaN;
    terminal.type('write it\r');
    const ended = await terminal.waitFor(END, mark, 600_000);
    const endAt = terminal.screen().indexOf(END, mark);
    const prompt = await terminal.waitFor('› ', endAt, 600_000);
    const bytes = Buffer.byteLength(terminal.screen().slice(mark));
    await settled(pid, 100, 30_000);
    const cpuMs = ((cpuTicks(pid) ?? Number.NaN) - before) * TICK_MS;
    const lastByte = relay.lastReply() ?? ended;
    return { cpuMs, tailMs: prompt - lastByte, bytes };
  } finally {
    await terminal.close();
    await relay.close();
    await server.close();
  }
}

/** A and B interleaved, round after round (with `warm`, a first round warms the caches and is not counted). */
async function pairs(context: BenchContext, answer: string, rounds: number, warm: boolean): Promise<{ sylvan: Run[]; floor: Run[] }> {
  const cli = [process.execPath, join(context.projectRoot, 'bin', 'sylvan.js')];
  const floor = [process.execPath, join(context.projectRoot, 'bench', 'floor-stream.mjs')];
  const runs = { sylvan: [] as Run[], floor: [] as Run[] };
  for (let round = warm ? 0 : 1; round <= rounds; round++) {
    const a = await streamOnce(context, cli, answer);
    const b = await streamOnce(context, floor, answer);
    if (round === 0) continue;
    runs.sylvan.push(a);
    runs.floor.push(b);
  }
  return runs;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/**
 * Streaming an answer to the terminal: Sylvan against the floor (bench/floor-stream.mjs: the same
 * provider package and `streamText`, the text written raw), on a loopback DashScope server sending
 * 20-byte chunks as fast as they are read. CPU and the tail (last byte → prompt) as medians of each
 * round's own ratio; bytes written to the terminal against the answer's size.
 */
export async function measureStreaming(context: BenchContext): Promise<Section[]> {
  // The largest sizes cost seconds a run: fewer rounds there keep the whole bench within minutes.
  const roundsFor = (bytes: number) => Math.min(bytes > 64 * 1024 ? 3 : 4, context.rounds);
  const blocks: Case[] = [6, 24, 200].map((size) => ({ label: `one code block, ${size} KB`, answer: codeBlockAnswer(size * 1024, END) }));
  const markdown: Case[] = [10, 200].map((size) => ({ label: `ordinary markdown, ${size} KB`, answer: ordinaryMarkdown(size * 1024, END) }));
  const measured = new Map<string, { answer: string; cpu: number; tail: number; bytes: number; sylvanCpu: number; floorCpu: number }>();
  for (const [index, { label, answer }] of [...blocks, ...markdown].entries()) {
    context.progress(`  ${label} …`);
    const { sylvan, floor } = await pairs(context, answer, roundsFor(answer.length), index === 0);
    const ratio = (key: keyof Run) => median(sylvan.map((runA, index) => runA[key] / Math.max(TICK_MS, floor[index]![key])));
    measured.set(label, {
      answer,
      cpu: ratio('cpuMs'),
      tail: ratio('tailMs'),
      bytes: median(sylvan.map((runA) => runA.bytes)) / Buffer.byteLength(answer),
      sylvanCpu: median(sylvan.map((runA) => runA.cpuMs)),
      floorCpu: median(floor.map((runB) => runB.cpuMs)),
    });
  }
  /** Targets, by case and measure: the figures (a long block in CPU; ordinary markdown in all three). */
  const targets: Record<string, Partial<Record<'cpu' | 'tail' | 'bytes', number>>> = {
    'one code block, 24 KB': { cpu: 3 },
    'ordinary markdown, 200 KB': { cpu: 2, tail: 2, bytes: 3 },
  };
  const held = (label: string, key: 'cpu' | 'tail' | 'bytes', value: number): Pick<Row, 'target' | 'passed'> => {
    const target = targets[label]?.[key];
    return target === undefined ? {} : { target: `<= ${target}x`, passed: value <= target };
  };
  const rowsOf = (cases: Case[]): Row[] =>
    cases.flatMap(({ label }) => {
      const m = measured.get(label)!;
      return [
        { measure: `${label}: CPU`, result: `${formatMs(m.sylvanCpu)} vs ${formatMs(m.floorCpu)}  ${formatRatio(m.cpu)} floor`, ...held(label, 'cpu', m.cpu) },
        { measure: `${label}: last byte -> prompt`, result: `${formatRatio(m.tail)} floor`, ...held(label, 'tail', m.tail) },
        { measure: `${label}: bytes to the terminal`, result: `${formatRatio(m.bytes)} the answer (${kb(m.answer.length)})`, ...held(label, 'bytes', m.bytes) },
      ];
    });
  const perKb = (label: string) => {
    const m = measured.get(label)!;
    return m.sylvanCpu / m.answer.length;
  };
  const growth = perKb('one code block, 24 KB') / perKb('one code block, 6 KB');
  return [
    {
      title: 'Streaming one long code block to a 120x40 terminal (Sylvan vs the floor, paired medians)',
      rows: [
        ...rowsOf(blocks),
        { measure: 'CPU per KB, 24 KB block vs 6 KB', result: formatRatio(growth), target: '<= 1.3x (linear: 1x)', passed: growth <= 1.3 },
        { measure: 'CPU per KB, 200 KB block vs 6 KB', result: formatRatio(perKb('one code block, 200 KB') / perKb('one code block, 6 KB')) },
      ],
    },
    {
      title: 'Streaming ordinary markdown (headings, lists, tables, short code) to a 120x40 terminal',
      rows: [
        ...rowsOf(markdown),
        { measure: 'CPU per KB, 200 KB vs 10 KB', result: formatRatio(perKb('ordinary markdown, 200 KB') / perKb('ordinary markdown, 10 KB')) },
      ],
      notes: [
        'floor: bench/floor-stream.mjs, @ai-sdk/alibaba + streamText writing the text raw; a fresh process per run, CPU from Enter to idle at the prompt.',
        `the loopback server sends ${CHUNK_BYTES}-byte chunks as fast as they are read; CPU is counted in 10 ms ticks; per KB includes each turn's fixed cost.`,
      ],
    },
  ];
}
