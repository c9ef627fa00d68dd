import { DEFAULT_BREAKER_SETTINGS } from '../../config/settings/budget-settings.ts';
import { callSignature, progressText, roughText } from './call-signature.ts';

/**
 * When the circuit breaker speaks up (settings `circuitBreaker`). Each pattern is first told to the
 * model, in a tool result; if the model goes on with it, the turn stops with `repeated-call`.
 */
export interface BreakerThresholds {
  /** Calls of one tool whose arguments differ only in key order, spacing or numbers. */
  nearIdenticalCalls: number;
  /** Full rounds of a cycle of two or three calls (A B A B…). */
  cycleRepeats: number;
  /** Failures of one tool with the same error (numbers aside). */
  sameFailures: number;
  /** Steps in a row that bring no new tool result and no new text. */
  stepsWithoutProgress: number;
}

/** The defaults (settings `circuitBreaker` changes them). */
export const DEFAULT_BREAKER_THRESHOLDS: BreakerThresholds = DEFAULT_BREAKER_SETTINGS;

/** What the breaker needs of a call. */
export interface StepCallLike {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export type LoopPattern = 'near-identical' | 'cycle' | 'same-failure' | 'no-progress';

/** The pattern that went on after the warning, in words for the user's line. */
export interface TrippedBreaker {
  pattern: LoopPattern;
  description: string;
}

const CYCLE_PERIODS = [2, 3] as const;

/**
 * Watches one turn's calls, results and steps for the ways a model loops that identical calls do
 * not catch: near-identical arguments, a cycle of two or three calls, the same failure again and
 * again, steps that bring nothing new. The first time a pattern shows, it returns a note for the
 * model (what it is doing and what to do instead); when the pattern goes on, `tripped` is set and
 * the loop stops the turn.
 */
export class CircuitBreaker {
  tripped: TrippedBreaker | undefined;
  /** Each step's calls, as one key (its distinct signatures), and their tool names. */
  private readonly steps: string[] = [];
  private readonly stepNames: string[] = [];
  private readonly callCounts = new Map<string, number>();
  private readonly failureCounts = new Map<string, number>();
  private readonly seen = new Set<string>();
  private readonly warnedCalls = new Set<string>();
  private readonly warnedFailures = new Set<string>();
  private warnedCycle: { period: string[]; names: string[] } | undefined;
  private idleSteps = 0;
  private warnedIdle = false;

  constructor(private readonly thresholds: BreakerThresholds) {}

  /**
   * A step's calls, judged together before any of them runs: `stop` for a call that carries on a
   * pattern the model was warned about, a note to add to a call's result when a pattern first shows.
   * Alike calls in one step are one batch (sixteen edits of one file), so patterns count steps.
   */
  judgeStep(calls: readonly StepCallLike[]): Map<string, { stop: string } | { note: string }> {
    const verdicts = new Map<string, { stop: string } | { note: string }>();
    if (calls.length === 0) return verdicts;
    const signatures = calls.map((call) => callSignature(call.toolName, call.input));
    const stepKey = [...new Set(signatures)].sort().join('\u0001');
    if (this.warnedCycle) {
      const { period, names } = this.warnedCycle;
      if (stepKey === period[0]) {
        const stop = this.trip('cycle', `the model kept repeating a cycle of ${period.length} steps (${names.join(' → ')}) after being told`);
        for (const call of calls) verdicts.set(call.toolCallId, stop);
        return verdicts;
      }
      this.warnedCycle = undefined;
    }
    let noted = false;
    for (const signature of new Set(signatures)) {
      const alike = calls.filter((_, index) => signatures[index] === signature);
      const { toolName } = alike[0]!;
      const count = (this.callCounts.get(signature) ?? 0) + 1;
      if (this.warnedCalls.has(signature)) {
        const stop = this.trip('near-identical', `the model called ${toolName} in ${count} steps with arguments that differ only in numbers or spacing, after being told`);
        for (const call of alike) verdicts.set(call.toolCallId, stop);
        continue;
      }
      this.callCounts.set(signature, count);
      if (count < this.thresholds.nearIdenticalCalls) continue;
      this.warnedCalls.add(signature);
      noted = true;
      verdicts.set(alike[0]!.toolCallId, {
        note:
          `[Sylvan: this is step ${count} of this turn calling ${toolName} with nearly the same arguments (only numbers or spacing change). ` +
          'You are repeating yourself. If you are paging through something, take a much larger range at once or search for what you need; ' +
          'otherwise try a different approach, or answer with what you have. Another such call ends the turn.]',
      });
    }
    this.steps.push(stepKey);
    this.stepNames.push([...new Set(calls.map((call) => call.toolName))].join(' + '));
    const cycle = noted || this.tripped ? undefined : this.cycle();
    if (cycle) {
      this.warnedCycle = cycle;
      verdicts.set(calls.at(-1)!.toolCallId, {
        note:
          `[Sylvan: your last steps repeat the same cycle (${cycle.names.join(' → ')}) ${this.thresholds.cycleRepeats} times. ` +
          'Going round again will not give a different result: change the approach, or answer with what you have. Calling the cycle again ends the turn.]',
      });
    }
    return verdicts;
  }

  /** After a call ran: counts a failure; a note when this failure is one too many, `tripped` when it goes on after one. */
  afterCall(toolName: string, failed: boolean, resultText: string): string | undefined {
    if (!failed) return undefined;
    const key = `${toolName}\u0000${roughText(resultText)}`;
    const count = (this.failureCounts.get(key) ?? 0) + 1;
    this.failureCounts.set(key, count);
    if (this.warnedFailures.has(key)) {
      this.trip('same-failure', `${toolName} failed the same way ${count} times, and the model kept retrying after being told`);
      return undefined;
    }
    if (count < this.thresholds.sameFailures) return undefined;
    this.warnedFailures.add(key);
    return (
      `[Sylvan: ${toolName} has now failed the same way ${count} times in this turn. Retrying with small changes will not help: ` +
      'read the error, fix its cause or try a different approach, or tell the user what is blocking you. Another such failure ends the turn.]'
    );
  }

  /**
   * After a step's calls: whether it brought a new result or new text. A note when too many steps in a
   * row brought nothing new, `tripped` when the next one brings nothing either.
   */
  afterStep(text: string, resultTexts: readonly string[]): string | undefined {
    let progress = false;
    for (const piece of [text, ...resultTexts]) {
      const key = progressText(piece);
      if (key === '' || this.seen.has(key)) continue;
      this.seen.add(key);
      progress = true;
    }
    if (progress) {
      this.idleSteps = 0;
      this.warnedIdle = false;
      return undefined;
    }
    this.idleSteps++;
    if (this.warnedIdle) {
      this.trip('no-progress', `${this.idleSteps} steps in a row brought no new result or text, after the model was told`);
      return undefined;
    }
    if (this.idleSteps < this.thresholds.stepsWithoutProgress) return undefined;
    this.warnedIdle = true;
    return (
      `[Sylvan: the last ${this.idleSteps} steps brought no new result and no new text. ` +
      'Stop and answer with what you have, or try something clearly different. Another step without anything new ends the turn.]'
    );
  }

  private trip(pattern: LoopPattern, description: string): { stop: string } {
    this.tripped ??= { pattern, description };
    return { stop: `Not run: ${description.replace(/^the model /, 'you ')}, so the turn was stopped.` };
  }

  /** A cycle of two or three steps (not all alike) that has just gone round `cycleRepeats` times. */
  private cycle(): { period: string[]; names: string[] } | undefined {
    const calls = this.steps;
    for (const length of CYCLE_PERIODS) {
      const span = length * this.thresholds.cycleRepeats;
      if (calls.length < span || this.thresholds.cycleRepeats < 2) continue;
      const window = calls.slice(-span);
      const period = window.slice(0, length);
      if (new Set(period).size < 2) continue;
      if (window.every((signature, index) => signature === period[index % length])) {
        return { period, names: this.stepNames.slice(-span, -span + length) };
      }
    }
    return undefined;
  }
}
