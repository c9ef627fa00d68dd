import { join } from 'node:path';
import { startDashScopeServer, text, toolCalls } from '../test/helpers/dashscope-server.ts';
import type { BenchContext } from './context.ts';
import { startRelay } from './relay.ts';
import type { Section } from './report.ts';
import { formatMegabytes, formatMs, formatRatio, median } from './statistics.ts';
import { residentBytes, settled, startTerminal } from './terminal.ts';

const TURNS = 300;
const ANSWER = 'The sum is 20, as the calculator says.';
/** The turns whose Enter -> request is timed (after the CLI is idle): nine early, five at 100, nine at the end. */
const TIMED = { early: [6, 7, 8, 9, 10, 11, 12, 13, 14], middle: [96, 97, 98, 99, 100], late: [292, 293, 294, 295, 296, 297, 298, 299, 300] };
const TIME_TARGET = 1.3;
const MEMORY_TARGET = 1.5;

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
  const timedTurns = new Set(Object.values(TIMED).flat());
  try {
    await terminal.waitFor('› ', 0, 20_000);
    const pid = await terminal.pid();
    await settled(pid, 250);
    for (let turn = 1; turn <= TURNS; turn++) {
      if (timedTurns.has(turn)) await settled(pid, 100);
      const mark = terminal.screen().length;
      const seen = relay.arrivals.length;
      const pressed = terminal.type(`add them up, turn ${turn}\r`);
      await terminal.waitFor(ANSWER, mark, 30_000);
      await terminal.waitFor('› ', terminal.screen().indexOf(ANSWER, mark), 30_000);
      const arrived = relay.arrivals[seen];
      if (arrived === undefined) throw new Error(`turn ${turn} was answered but no request reached the relay`);
      if (timedTurns.has(turn)) timed.set(turn, arrived - pressed);
      if (turn === 1 || turn === TURNS) {
        await settled(pid, 250);
        memory.set(turn, residentBytes(pid) ?? Number.NaN);
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
  const memoryGrowth = (memory.get(TURNS) ?? Number.NaN) / (memory.get(1) ?? Number.NaN);
  return {
    title: `A long session: ${TURNS} turns (a tool call and an answer each) in one REPL on a pseudo-terminal`,
    rows: [
      { measure: 'Enter -> request, turns 6-14', result: formatMs(early) },
      { measure: 'Enter -> request, turns 96-100', result: `${formatMs(at(TIMED.middle))}  ${formatRatio(at(TIMED.middle) / early)}` },
      {
        measure: `Enter -> request, turns ${TURNS - 8}-${TURNS} vs 6-14`,
        result: `${formatMs(late)}  ${formatRatio(late / early)}`,
        target: `<= ${TIME_TARGET}x`,
        passed: late / early <= TIME_TARGET,
      },
      { measure: 'memory idle at the prompt after turn 1', result: formatMegabytes(memory.get(1) ?? Number.NaN) },
      {
        measure: `memory idle at the prompt after turn ${TURNS}`,
        result: `${formatMegabytes(memory.get(TURNS) ?? Number.NaN)}  ${formatRatio(memoryGrowth)}`,
        target: `<= ${MEMORY_TARGET}x turn 1`,
        passed: memoryGrowth <= MEMORY_TARGET,
      },
    ],
    notes: ['medians of the turns named, every timed Enter once the CLI is idle; memory is VmRSS once the CLI has been idle 250 ms.'],
  };
}
