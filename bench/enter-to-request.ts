import { join } from 'node:path';
import { startDashScopeServer, text } from '../test/helpers/dashscope-server.ts';
import type { BenchContext } from './context.ts';
import { startRelay } from './relay.ts';
import type { Section } from './report.ts';
import { formatMs, median } from './statistics.ts';
import { settled, startTerminal } from './terminal.ts';

const FIRST_TARGET_MS = 80;
const LATER_TARGET_MS = 30;
const LATER_TURNS = 5;
const REPLY = 'pong from the loopback server';

/**
 * Enter → the first byte of the request at a loopback server, with the REPL in a pseudo-terminal and
 * the DashScope provider: the first turn (after the prompt has been idle as long as the runtime needed
 * to load, as while a user types) and later turns on a growing history.
 */
export async function measureEnterToRequest(context: BenchContext): Promise<Section> {
  const server = await startDashScopeServer({ respond: () => text(REPLY) });
  const relay = await startRelay(new URL(server.baseURL));
  const cli = join(context.projectRoot, 'bin', 'sylvan.js');
  const env = {
    ...context.env,
    DASHSCOPE_API_KEY: 'sk-bench',
    DASHSCOPE_BASE_URL: `http://127.0.0.1:${relay.port}/compatible-mode/v1`,
  };
  const first: number[] = [];
  const later: number[] = [];
  try {
    for (let round = 0; round <= context.rounds; round++) {
      const terminal = startTerminal([process.execPath, cli], { cwd: context.workspace, env });
      try {
        await terminal.waitFor('› ', 0, 20_000);
        const pid = await terminal.pid();
        for (let turn = 0; turn <= LATER_TURNS; turn++) {
          await settled(pid, turn === 0 ? 250 : 100);
          const mark = terminal.screen().length;
          const seen = relay.arrivals.length;
          const pressed = terminal.type(`question ${turn}\r`);
          await terminal.waitFor(new RegExp(`${REPLY}[\\s\\S]*› `), mark, 20_000);
          const arrived = relay.arrivals[seen];
          if (arrived === undefined) throw new Error(`turn ${turn} was answered but no request reached the relay`);
          if (round > 0) (turn === 0 ? first : later).push(arrived - pressed);
        }
      } finally {
        await terminal.close();
      }
    }
  } finally {
    await relay.close();
    await server.close();
  }
  const firstMs = median(first);
  const laterMs = median(later);
  return {
    title: `Enter -> first request byte at a loopback server (pseudo-terminal, DashScope provider, ${context.rounds} sessions)`,
    rows: [
      { measure: 'first turn', result: formatMs(firstMs), target: `<= ${FIRST_TARGET_MS} ms`, passed: firstMs <= FIRST_TARGET_MS },
      {
        measure: `later turns (2nd-${LATER_TURNS + 1}th)`,
        result: formatMs(laterMs),
        target: `<= ${LATER_TARGET_MS} ms`,
        passed: laterMs <= LATER_TARGET_MS,
      },
    ],
    notes: ['each Enter waits until the CLI is idle, as it would be while the user types; the time includes the terminal driver.'],
  };
}
