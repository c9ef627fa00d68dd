import { createServer, type Socket } from 'node:net';
import { createAlibaba } from '@ai-sdk/alibaba';
import { streamText, tool, type ModelMessage } from 'ai';
import { z } from 'zod';
import { busyAgain, collectWhenIdle } from '../src/runtime/idle-collector.ts';
import { median } from './statistics.ts';

/** The answer every turn of the long session ends with, and the question each starts with. */
const ANSWER = 'The sum is 20, as the calculator says.';

/**
 * How each request of the floor is timed. `back-to-back`: one after another, everything hot. `as-at-
 * the-prompt`: as the long session times an Enter, after 250 ms idle in which Sylvan's own idle
 * collection (src/runtime/idle-collector.ts) has run at 150 ms, so the request finds what a user's
 * Enter finds: code and caches gone cold, a freshly compacted heap.
 */
export type FloorPacing = 'back-to-back' | 'as-at-the-prompt';

/** The idle time before a request timed `as-at-the-prompt`: the long session's settle time. */
const IDLE_MS = 250;

/**
 * The floor under Enter -> request: a plain `streamText` through the same provider package, from the
 * call to the first request byte on a loopback socket, with the history of `turns` turns shaped as
 * the long session's (a question, a tool call, its result, an answer). What the SDK and the provider
 * do with a history (convert it twice, write it as JSON) grows with it for any program built on
 * them; what Sylvan adds is measured against this.
 */
export async function requestFloor(turnCounts: readonly number[], rounds: number, pacing: FloorPacing = 'back-to-back'): Promise<Map<number, number>> {
  let arrived: (() => void) | undefined;
  let arrival = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => {
      arrival = performance.now();
      arrived?.();
      socket.destroy();
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the floor server has no port');
  const model = createAlibaba({ baseURL: `http://127.0.0.1:${address.port}/compatible-mode/v1`, apiKey: 'sk-bench' }).chatModel('qwen-plus');
  const tools = { calculate: tool({ description: 'Evaluates an arithmetic expression.', inputSchema: z.object({ expression: z.string() }) }) };
  const once = async (messages: ModelMessage[]): Promise<number> => {
    const seen = new Promise<void>((resolve) => (arrived = resolve));
    const start = performance.now();
    const result = streamText({ model, instructions: 'You are a terminal assistant.', tools, messages, maxRetries: 0, onError: () => {} });
    const drained = (async () => {
      for await (const part of result.stream) void part;
    })().catch(() => {});
    await seen;
    await drained;
    return arrival - start;
  };
  const times = new Map<number, number[]>(turnCounts.map((turns) => [turns, []]));
  try {
    const histories = new Map(turnCounts.map((turns) => [turns, history(turns)]));
    // Interleaved, so a slower moment of the machine falls on every history alike.
    for (let round = 0; round < rounds; round++) {
      for (const turns of turnCounts) {
        if (pacing === 'as-at-the-prompt') {
          collectWhenIdle();
          await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
          busyAgain();
        }
        times.get(turns)!.push(await once(histories.get(turns)!));
      }
    }
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return new Map([...times].map(([turns, values]) => [turns, median(values.slice(Math.floor(rounds / 5)))]));
}

function history(turns: number): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const id = `call-${turn}`;
    messages.push(
      { role: 'user', content: `add them up, turn ${turn}` },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'calculate', input: { expression: '(2+3)*4' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'calculate', output: { type: 'text', value: '20' } }] },
      { role: 'assistant', content: ANSWER },
    );
  }
  messages.push({ role: 'user', content: `add them up, turn ${turns + 1}` });
  return messages;
}
