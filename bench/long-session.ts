import { join } from 'node:path';
import { startDashScopeServer, text, toolCalls } from '../test/helpers/dashscope-server.ts';
import type { BenchContext } from './context.ts';
import { startRelay } from './relay.ts';
import type { Section } from './report.ts';
import { formatMegabytes, formatMs, formatRatio, median } from './statistics.ts';
import { requestFloor } from './request-floor.ts';
import { residentBytes, settled, startTerminal } from './terminal.ts';

const TURNS = 300;
const ANSWER = 'The sum is 20, as the calculator says.';
/** The turns whose Enter -> request is timed (after the CLI is idle): twenty early, five at 100, twenty at the end. */
const TIMED = { early: range(6, 25), middle: range(96, 100), late: range(281, 300) };
/** The floor is timed with the histories of these turns: the middle of each timed range. */
const FLOOR_TURNS = { early: 15, late: 290 };
const FLOOR_ROUNDS = 100;
/** Paced as an Enter at the prompt, each request takes 250 ms: fewer rounds. */
const PACED_FLOOR_ROUNDS = 40;
const TIME_TARGET = 1.3;
const MEMORY_TARGET = 1.5;
/** How long a user reads at the prompt before memory is read again: longer than Sylvan's second idle collection (6 s). */
const READING_MS = 7_000;

/**
 * One REPL session in a pseudo-terminal, 300 turns of a tool call and an answer each on a loopback
 * DashScope server: Enter -> first request byte early, at turn 100 and at the end, and resident
 * memory idle at the prompt after turn 1 and after turn 300. What a turn costs must not grow with
 * the session.
 */
export async function measureLongSession(context: BenchContext): Promise<Section> {
  const server = await startDashScopeServer({
    respond: (request) => {
      const messages = request.body?.messages ?? [];
      return messages.at(-1)?.role === 'user'
        ? toolCalls([{ name: 'calculate', arguments: { expression: '(2+3)*4' } }])
        : text(ANSWER);
    },
  });
  const relay = await startRelay(new URL(server.baseURL));
  const env = { ...context.env, DASHSCOPE_API_KEY: 'sk-bench', DASHSCOPE_BASE_URL: `http://127.0.0.1:${relay.port}/compatible-mode/v1` };
  const cli = join(context.projectRoot, 'bin', 'sylvan.js');
  const terminal = startTerminal([process.execPath, cli], { cwd: context.workspace, env, size: { columns: 120, rows: 40 } });
  const timed = new Map<number, number>();
  const memory = new Map<number, number>();
  const memoryRead = new Map<number, number>();
  const timedTurns = new Set(Object.values(TIMED).flat());
  try {
    await terminal.waitFor('› ', 0, 20_000);
    const pid = await terminal.pid();
    await settled(pid, 250);
    for (let turn = 1; turn <= TURNS; turn++) {
      // Past the idle collection a turn ends with (150 ms), so the Enter never races it.
      if (timedTurns.has(turn)) await settled(pid, 250);
      const mark = terminal.screen().length;
      const seen = relay.arrivals.length;
      const pressed = terminal.type(`add them up, turn ${turn}\r`);
      await terminal.waitFor(ANSWER, mark, 30_000);
      await terminal.waitFor('› ', terminal.screen().indexOf(ANSWER, mark), 30_000);
      const arrived = relay.arrivals[seen];
      if (arrived === undefined) throw new Error(`turn ${turn} was answered but no request reached the relay`);
      if (timedTurns.has(turn)) timed.set(turn, arrived - pressed);
      if (turn === 1 || turn === TURNS) {
        const ended = performance.now();
        await settled(pid, 250);
        memory.set(turn, residentBytes(pid) ?? Number.NaN);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, READING_MS - (performance.now() - ended))));
        await settled(pid, 250);
        memoryRead.set(turn, residentBytes(pid) ?? Number.NaN);
      }
      if (turn % 50 === 0) context.progress(`  turn ${turn} …`);
    }
  } finally {
    await terminal.close();
    await relay.close();
    await server.close();
  }
  const at = (turns: number[]) => median(turns.map((turn) => timed.get(turn) ?? Number.NaN));
  const early = at(TIMED.early);
  const late = at(TIMED.late);
  context.progress('  the floor: the same requests from a plain streamText …');
  const floor = await requestFloor([FLOOR_TURNS.early, FLOOR_TURNS.late], FLOOR_ROUNDS);
  const floorEarly = floor.get(FLOOR_TURNS.early) ?? Number.NaN;
  const floorLate = floor.get(FLOOR_TURNS.late) ?? Number.NaN;
  context.progress('  … and each one as an Enter at the prompt meets it (idle, then the idle collection) …');
  const paced = await requestFloor([FLOOR_TURNS.early, FLOOR_TURNS.late], PACED_FLOOR_ROUNDS, 'as-at-the-prompt');
  const pacedEarly = paced.get(FLOOR_TURNS.early) ?? Number.NaN;
  const pacedLate = paced.get(FLOOR_TURNS.late) ?? Number.NaN;
  const memoryGrowth = (memory.get(TURNS) ?? Number.NaN) / (memory.get(1) ?? Number.NaN);
  const readGrowth = (memoryRead.get(TURNS) ?? Number.NaN) / (memoryRead.get(1) ?? Number.NaN);
  return {
    title: `A long session: ${TURNS} turns (a tool call and an answer each) in one REPL on a pseudo-terminal`,
    rows: [
      { measure: `Enter -> request, turns ${span(TIMED.early)}`, result: formatMs(early) },
      { measure: `Enter -> request, turns ${span(TIMED.middle)}`, result: `${formatMs(at(TIMED.middle))}  ${formatRatio(at(TIMED.middle) / early)}` },
      {
        measure: `Enter -> request, turns ${span(TIMED.late)} vs ${span(TIMED.early)}`,
        result: `${formatMs(late)}  ${formatRatio(late / early)}  (+${formatMs(late - early)})`,
        target: `<= ${TIME_TARGET}x`,
        passed: late / early <= TIME_TARGET,
      },
      {
        measure: `the floor: streamText -> request, ${FLOOR_TURNS.late} turns of history vs ${FLOOR_TURNS.early}, back to back`,
        result: `${formatMs(floorLate)} vs ${formatMs(floorEarly)}  ${formatRatio(floorLate / floorEarly)}  (+${formatMs(floorLate - floorEarly)})`,
      },
      {
        measure: `the floor, each request as an Enter at the prompt meets it`,
        result: `${formatMs(pacedLate)} vs ${formatMs(pacedEarly)}  ${formatRatio(pacedLate / pacedEarly)}  (+${formatMs(pacedLate - pacedEarly)})`,
      },
      { measure: "Sylvan's own growth: Sylvan's + minus the paced floor's +", result: formatMs(late - early - (pacedLate - pacedEarly)) },
      { measure: 'memory idle at the prompt after turn 1', result: formatMegabytes(memory.get(1) ?? Number.NaN) },
      { measure: `memory idle at the prompt after turn ${TURNS}`, result: `${formatMegabytes(memory.get(TURNS) ?? Number.NaN)}  ${formatRatio(memoryGrowth)}` },
      { measure: `memory at the prompt ${READING_MS / 1000} s after turn 1`, result: formatMegabytes(memoryRead.get(1) ?? Number.NaN) },
      {
        measure: `memory at the prompt ${READING_MS / 1000} s after turn ${TURNS}`,
        result: `${formatMegabytes(memoryRead.get(TURNS) ?? Number.NaN)}  ${formatRatio(readGrowth)}`,
        target: `<= ${MEMORY_TARGET}x turn 1`,
        passed: readGrowth <= MEMORY_TARGET,
      },
    ],
    notes: [
      `the floor is @ai-sdk/alibaba under a plain streamText, in this process, with histories shaped as the session's; medians of ${FLOOR_ROUNDS} requests each (${PACED_FLOOR_ROUNDS} paced), interleaved. What the SDK and the provider do with a history grows with it for anything built on them.`,
      "paced: before each request the floor idles 250 ms, with Sylvan's idle collection at 150 ms, as before each timed Enter; that is the floor the Enter rows stand on.",
      ...(pacedLate / pacedEarly > TIME_TARGET
        ? [`a plain streamText paced so grows ${formatRatio(pacedLate / pacedEarly)} by itself, past the ${TIME_TARGET}x target: no program that sends its history through streamText can meet it.`]
        : []),
      'medians of the turns named, every timed Enter once the CLI is idle; memory is VmRSS once the CLI has been idle 250 ms, and again once a reader would have sat at the prompt 7 s (both after turn 1 and after the last).',
    ],
  };
}

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

const span = (turns: readonly number[]): string => `${turns[0]}-${turns.at(-1)}`;
