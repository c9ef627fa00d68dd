import { isStepCount, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { z } from 'zod';
import { ContextFitter } from '../src/agent/context-fitter.ts';
import { Conversation } from '../src/agent/conversation.ts';
import { runTurn, type ApprovalPolicy } from '../src/agent/run-turn.ts';
import { scriptedModel } from '../test/helpers/scripted-model.ts';
import type { BenchContext } from './context.ts';
import type { Section } from './report.ts';
import { collectGarbage, formatMicroseconds, formatRatio, median } from './statistics.ts';

const STEPS = 1_000;
const TARGET = 1.1;
/**
 * CPU milliseconds of this process since `start` (from `process.cpuUsage()`): on a machine shared with
 * other work, wall time measures the neighbours as much as the loop.
 */
const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const noApproval: ApprovalPolicy = { decide: () => 'not-needed', ask: async () => ({ approved: true }) };

/** One trivial tool; every step but the last calls it with a new input, the last answers in text. */
const makeTools = (): ToolSet => ({
  step: tool({
    description: 'Counts a step.',
    inputSchema: z.object({ n: z.number() }),
    execute: async ({ n }) => `step ${n} done`,
  }),
});
const script = (index: number) => (index < STEPS - 1 ? { calls: [{ name: 'step', input: { n: index } }] } : { text: 'done' });

/**
 * Sylvan's loop as the runtime runs it: the history fitted before each step, and the fitter told the
 * provider's count after it (the runtime's `onStepUsage`), so the calibration moves as it does there.
 */
async function sylvanLoop(): Promise<number> {
  const tools = makeTools();
  const fitter = new ContextFitter(1_000_000_000, 'You are a benchmark.', tools);
  const model = scriptedModel(script);
  collectGarbage();
  const start = process.cpuUsage();
  let steps = 0;
  for await (const event of runTurn({
    model,
    tools,
    instructions: 'You are a benchmark.',
    conversation: new Conversation(),
    userMessage: 'count',
    limits: { maxSteps: STEPS, tokenBudget: Number.MAX_SAFE_INTEGER, maxIdenticalCalls: 3 },
    stepTimeoutMs: 60_000,
    toolTimeoutMs: 60_000,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    approval: noApproval,
    provider: { label: 'the mock model', model: 'mock' },
    fitMessages: (messages) => fitter.fit(messages),
    onStepUsage: (sent, usage) => fitter.observe(sent, usage),
  })) {
    if (event.type === 'turn-end') {
      if (event.stopReason !== 'completed') throw new Error(`Sylvan's loop stopped "${event.stopReason}": ${event.message ?? ''}`);
      steps = event.steps;
    }
  }
  const elapsed = cpuMsSince(start);
  if (steps !== STEPS) throw new Error(`Sylvan's loop ran ${steps} steps, not ${STEPS}`);
  return elapsed;
}

/**
 * CPU milliseconds of the SDK's own multi-step loop over the same script, with `options` added to
 * the call (and, with `history`, the history kept beside it); `name` is for the error if it misbehaves.
 */
async function timeSdkLoop(name: string, options: (history: ModelMessage[]) => Partial<Parameters<typeof streamText>[0]>): Promise<number> {
  const model = scriptedModel(script);
  const history: ModelMessage[] = [{ role: 'user', content: 'count' }];
  collectGarbage();
  const start = process.cpuUsage();
  const result = streamText({
    model,
    tools: makeTools(),
    instructions: 'You are a benchmark.',
    messages: [...history],
    stopWhen: isStepCount(STEPS),
    onError: () => {},
    ...options(history),
  } as Parameters<typeof streamText>[0]);
  for await (const part of result.stream) if (part.type === 'error') throw new Error(`${name} failed: ${String(part.error)}`);
  const elapsed = cpuMsSince(start);
  const steps = (await result.steps).length;
  if (steps !== STEPS) throw new Error(`${name} ran ${steps} steps, not ${STEPS}`);
  return elapsed;
}

/** The AI SDK's own multi-step loop on the same script. */
const sdkLoop = () => timeSdkLoop("the SDK's loop", () => ({}));

/**
 * The SDK's loop asked for what Sylvan asks of it: an abort signal, step and tool timeouts, an approval
 * hook, and the history handed back before each step from what each step added. Not a target: it
 * tells what of the ratio is the SDK's own cost for those features and what is Sylvan's code.
 */
const sdkLoopWithSylvansOptions = () =>
  timeSdkLoop("the SDK's loop with Sylvan's options", (history) => ({
    abortSignal: new AbortController().signal,
    timeout: { stepMs: 60_000, toolMs: 60_000 },
    toolApproval: () => undefined,
    prepareStep: ({ stepNumber }: { stepNumber: number }) => (stepNumber === 0 ? undefined : { messages: [...history] }),
    onStepEnd: (step: { response: { messages: ModelMessage[] } }) => {
      history.push(...step.response.messages);
    },
  }));

/**
 * Per step, Sylvan's hand-written loop (runTurn + ContextFitter) against `streamText` with
 * `stopWhen`, on the same zero-latency scripted model (`MockLanguageModelV4`), rounds interleaved.
 */
export async function measureLoopOverhead(context: BenchContext): Promise<Section> {
  // As many rounds as the other measurements: with four, one busy moment moved the median by 0.1.
  const rounds = Math.max(3, context.rounds);
  const sylvan: number[] = [];
  const sdk: number[] = [];
  const sdkWithOptions: number[] = [];
  await sdkLoop(); // warms the JIT for all three
  await sdkLoopWithSylvansOptions();
  await sylvanLoop();
  for (let round = 0; round < rounds; round++) {
    sdk.push(await sdkLoop());
    sdkWithOptions.push(await sdkLoopWithSylvansOptions());
    sylvan.push(await sylvanLoop());
  }
  const ratioTo = (runs: number[]) => median(runs.map((ms, index) => ms / (sdk[index] ?? Number.NaN)));
  const ratio = ratioTo(sylvan);
  const perStep = (runs: number[]) => formatMicroseconds((median(runs) * 1000) / STEPS);
  return {
    title: `Agent loop, CPU time per step, ${STEPS.toLocaleString('en-US')} steps on MockLanguageModelV4 (median of ${rounds} paired runs)`,
    rows: [
      { measure: "AI SDK's loop: streamText + stopWhen (reference)", result: perStep(sdk) },
      { measure: "the same with Sylvan's options (abort, timeouts, approval hook, prepareStep)", result: `${perStep(sdkWithOptions)}  ${formatRatio(ratioTo(sdkWithOptions))} SDK` },
      {
        measure: "Sylvan's loop: runTurn + ContextFitter",
        result: `${perStep(sylvan)}  ${formatRatio(ratio)} SDK`,
        target: `<= ${TARGET}x`,
        passed: ratio <= TARGET,
      },
    ],
    notes: [
      'each step is one tool call with a new input and its result; the history grows to 2,000 messages.',
      "Sylvan's steps run in the SDK's loop too (one streamText until a call waits for approval), with the history fitted before each step and the fit calibrated after it.",
    ],
  };
}
