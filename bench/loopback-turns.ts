import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/load-config.ts';
import type { ApprovalPolicy } from '../src/agent/loop/turn-options.ts';
import { createRuntime } from '../src/runtime/create-runtime.ts';
import { startDashScopeServer, text, toolCalls } from '../test/helpers/dashscope-server.ts';
import type { Section } from './report.ts';
import { formatMs, median } from './statistics.ts';
import { loadModelFactory } from '../src/providers/load-model-factory.ts';

const WARM_UP_TURNS = 3;
/**
 * A turn here is two streamed requests over loopback, the calculator, two fits and the session
 * writes: measured 15-16 ms median (p90 ≈25 ms) here, so 60 ms flags a real regression rather than a busy machine.
 */
const TURN_TARGET_MS = 60;

const approveAll: ApprovalPolicy = {
  decide: () => 'allow',
  ask: async () => ({ approved: true }),
};

/**
 * Whole turns through `createRuntime(config).runTurn` with the DashScope provider pointed at a loopback
 * server on 127.0.0.1: each turn is a tool call (calculate) and then a text answer, on a growing history.
 */
export async function measureLoopbackTurns(turns: number): Promise<Section> {
  const server = await startDashScopeServer({
    respond: (request) => {
      const messages = request.body?.messages ?? [];
      return messages[messages.length - 1]?.role === 'user'
        ? toolCalls([{ name: 'calculate', arguments: { expression: '(2+3)*4' } }])
        : text('(2+3)*4 = 20，结果是 **20**。The parentheses are evaluated first.');
    },
  });
  const home = mkdtempSync(join(tmpdir(), 'sylvan-bench-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'sylvan-bench-workspace-'));
  try {
    const config = loadConfig([], { DASHSCOPE_API_KEY: 'k', DASHSCOPE_BASE_URL: server.baseURL, SYLVAN_HOME: home }, workspace);
    if ('help' in config || 'version' in config) throw new Error('loadConfig answered help/version for an empty argv');
    const runtime = createRuntime(config, { modelFactory: await loadModelFactory(config) });
    const times: number[] = [];
    try {
      for (let turn = 0; turn < WARM_UP_TURNS + turns; turn++) {
        const start = performance.now();
        const turnEvents = runtime.runTurn(`(2+3)*4 等于多少？ turn ${turn}`, new AbortController().signal, approveAll);
        let toolResults = 0;
        let step = await turnEvents.next();
        while (!step.done) {
          if (step.value.type === 'tool-result') toolResults++;
          step = await turnEvents.next();
        }
        const elapsed = performance.now() - start;
        if (step.value !== 'completed' || toolResults !== 1) {
          throw new Error(`loopback turn ${turn} ended "${step.value}" with ${toolResults} tool results`);
        }
        if (turn >= WARM_UP_TURNS) times.push(elapsed);
      }
    } finally {
      runtime.close();
    }
    const sorted = [...times].sort((a, b) => a - b);
    const p90 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? Number.NaN;
    const perTurn = median(times);
    return {
      title: `Full turns through createRuntime().runTurn, DashScope provider on 127.0.0.1 (${turns} turns)`,
      rows: [
        {
          measure: 'one turn: tool call + answer (2 requests)',
          result: `${formatMs(perTurn)} median, ${formatMs(p90)} p90`,
          target: `median < ${TURN_TARGET_MS} ms`,
          passed: perTurn < TURN_TARGET_MS,
        },
        { measure: `all ${turns} turns`, result: formatMs(times.reduce((total, time) => total + time, 0)) },
      ],
      notes: ['includes the in-process server streaming its SSE replies, the calculator, fitting and session writes.'],
    };
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}
