import { isStepCount, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { z } from 'zod';
import { ContextFitter } from '../src/agent/context/context-fitter.ts';
import { Conversation } from '../src/agent/context/conversation.ts';
import { agentLoop } from '../src/agent/loop/agent-loop.ts';
import type { ApprovalPolicy } from '../src/agent/loop/turn-options.ts';
import { scriptedModel } from '../test/helpers/scripted-model.ts';
import type { BenchContext } from './context.ts';
import type { Section } from './report.ts';
import { collectGarbageAndSettle, formatMicroseconds, formatRatio, median } from './statistics.ts';

const STEPS = 1_000;
const TARGET = 1.15;
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

/** CPU milliseconds at each step's start, to tell how a step's cost grows with the history. */
type StepClock = number[];

/**
 * Per-step cost (µs of CPU) near the start of the history (steps 2–11: up to ~20 messages) and near its
 * end (the last ten steps: ~2,000 messages): the median step of each stretch, so one collection of
 * garbage does not stand for the stretch.
 */
function perStepAt(clock: StepClock): { early: number; late: number } {
  const steps = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => (clock[from + index + 1]! - clock[from + index]!) * 1000);
  return { early: median(steps(1, 11)), late: median(steps(clock.length - 11, clock.length - 1)) };
}

/**
 * Sylvan's loop as the runtime runs it: the history fitted before each step, and the fitter told the
 * provider's count after it (the runtime's `onStepUsage`), so the calibration moves as it does there.
 */
const NEVER_TRIPS = { nearIdenticalCalls: Infinity, cycleRepeats: Infinity, sameFailures: Infinity, stepsWithoutProgress: Infinity };

async function sylvanLoop(clock?: StepClock): Promise<number> {
  const tools = makeTools();
  const fitter = new ContextFitter(1_000_000_000, 'You are a benchmark.', tools);
  const model = scriptedModel(script);
  await collectGarbageAndSettle();
  const start = process.cpuUsage();
  let steps = 0;
  for await (const event of agentLoop({
    model,
    tools,
    instructions: 'You are a benchmark.',
    conversation: new Conversation(),
    userMessage: 'count',
    // The script is 1,000 calls of one tool with a counter: the circuit breaker watches every step (its
    // cost is measured) but must not end the run, as it would a model that really loops.
    limits: { maxSteps: STEPS, tokenBudget: Number.MAX_SAFE_INTEGER, maxIdenticalCalls: 3, breaker: NEVER_TRIPS },
    stepTimeoutMs: 60_000,
    toolTimeoutMs: 60_000,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    approval: noApproval,
    provider: { label: 'the mock model', model: 'mock' },
    fitMessages: (messages) => fitter.fit(messages),
    onStepUsage: (sent, usage) => fitter.observe(sent, usage),
  })) {
    if (event.type === 'step-start') clock?.push(cpuMsSince(start));
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
 * The seed's own v0.3 `agentLoop` (seed 002), the floor of a hand-written loop: a `while` loop, one
 * `streamText` per step with no `stopWhen`, the full stream iterated, the step's messages pushed.
 */
async function seedLoop(clock?: StepClock): Promise<number> {
  const tools = makeTools();
  const model = scriptedModel(script);
  const messages: ModelMessage[] = [{ role: 'user', content: 'count' }];
  await collectGarbageAndSettle();
  const start = process.cpuUsage();
  let step = 0;
  while (step < STEPS) {
    step++;
    clock?.push(cpuMsSince(start));
    const result = streamText({ model, instructions: 'You are a benchmark.', tools, messages });
    let hasToolCall = false;
    let fullText = '';
    for await (const part of result.stream) {
      switch (part.type) {
        case 'text-delta':
          fullText += part.text;
          break;
        case 'tool-call':
          hasToolCall = true;
          break;
        case 'error':
          throw new Error(`the seed's loop failed: ${String(part.error)}`);
      }
    }
    messages.push(...(await result.responseMessages));
    if (!hasToolCall) break;
  }
  const elapsed = cpuMsSince(start);
  if (step !== STEPS) throw new Error(`the seed's loop ran ${step} steps, not ${STEPS}`);
  return elapsed;
}

/** CPU milliseconds of the SDK's own multi-step loop (`stopWhen`) over the same script: information only. */
async function sdkLoop(): Promise<number> {
  const model = scriptedModel(script);
  await collectGarbageAndSettle();
  const start = process.cpuUsage();
  const result = streamText({
    model,
    tools: makeTools(),
    instructions: 'You are a benchmark.',
    messages: [{ role: 'user', content: 'count' }],
    stopWhen: isStepCount(STEPS),
    onError: () => {},
  });
  for await (const part of result.stream) if (part.type === 'error') throw new Error(`the SDK's loop failed: ${String(part.error)}`);
  const elapsed = cpuMsSince(start);
  const steps = (await result.steps).length;
  if (steps !== STEPS) throw new Error(`the SDK's loop ran ${steps} steps, not ${STEPS}`);
  return elapsed;
}

/**
 * Per step, Sylvan's hand-written `agentLoop` (with the fitter, the guards, the approval policy and its
 * events) against the seed's v0.3 loop, on the same zero-latency scripted model
 * (`MockLanguageModelV4`), rounds interleaved; the SDK's `stopWhen` loop beside them for information.
 */
export async function measureLoopOverhead(context: BenchContext): Promise<Section> {
  // As many rounds as the other measurements: with four, one busy moment moved the median by 0.1.
  const rounds = Math.max(3, context.rounds);
  const sylvan: number[] = [];
  const seed: number[] = [];
  const sdk: number[] = [];
  await seedLoop(); // warms the JIT for all three
  await sylvanLoop();
  await sdkLoop();
  const sylvanClocks: StepClock[] = [];
  const seedClocks: StepClock[] = [];
  for (let round = 0; round < rounds; round++) {
    const seedClock: StepClock = [];
    const sylvanClock: StepClock = [];
    // The order alternates, so neither loop always follows the other's garbage.
    if (round % 2 === 0) {
      seed.push(await seedLoop(seedClock));
      sylvan.push(await sylvanLoop(sylvanClock));
    } else {
      sylvan.push(await sylvanLoop(sylvanClock));
      seed.push(await seedLoop(seedClock));
    }
    sdk.push(await sdkLoop());
    seedClocks.push(seedClock);
    sylvanClocks.push(sylvanClock);
  }
  const ratioTo = (runs: number[]) => median(runs.map((ms, index) => ms / (seed[index] ?? Number.NaN)));
  const ratio = ratioTo(sylvan);
  const perStep = (runs: number[]) => formatMicroseconds((median(runs) * 1000) / STEPS);
  const growth = (clocks: StepClock[]) => {
    const each = clocks.map(perStepAt);
    const early = median(each.map((stretch) => stretch.early));
    const late = median(each.map((stretch) => stretch.late));
    return `${formatMicroseconds(early)} at ~20 messages, ${formatMicroseconds(late)} at ~2,000`;
  };
  return {
    title: `Agent loop, CPU time per step, ${STEPS.toLocaleString('en-US')} steps on MockLanguageModelV4 (median of ${rounds} paired runs)`,
    rows: [
      { measure: "the seed's v0.3 agentLoop: one streamText per step (reference)", result: perStep(seed) },
      {
        measure: "Sylvan's agentLoop: fitting, guards, approval policy, events",
        result: `${perStep(sylvan)}  ${formatRatio(ratio)} seed`,
        target: `<= ${TARGET}x`,
        passed: ratio <= TARGET,
      },
      { measure: "  per step as the history grows: Sylvan's", result: growth(sylvanClocks) },
      { measure: "  per step as the history grows: the seed's", result: growth(seedClocks) },
      { measure: "the SDK's own loop: streamText + stopWhen (information, no target)", result: `${perStep(sdk)}  ${formatRatio(ratioTo(sdk))} seed` },
    ],
    notes: [
      'each step is one tool call with a new input and its result; the history grows to 2,000 messages.',
      "Sylvan's loop: one streamText per step (no stopWhen), the history fitted before each step and the fit calibrated after it, the calls run by the loop itself.",
    ],
  };
}
