import type { StopReason, TokenUsage } from './events.ts';

/** Limits that end a turn before the model does. */
export interface TurnLimits {
  /** Model requests per turn. */
  maxSteps: number;
  /** Input + output tokens summed over the turn's steps. */
  tokenBudget: number;
  /** How many identical calls (same tool, same arguments) a turn may make before it is stopped. */
  maxIdenticalCalls: number;
}

/** JSON with object keys sorted, so `{a:1,b:2}` and `{b:2,a:1}` are the same call. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Counts tool calls within one turn. `record` answers whether this call is one too many;
 * the caller denies it and stops the turn, so the repeated call never runs.
 */
export class RepeatedCallDetector {
  private readonly counts = new Map<string, number>();
  repeated: { toolName: string; input: unknown } | undefined;

  constructor(private readonly limit: number) {}

  /** Returns true when this call reaches the limit of identical calls. */
  record(toolName: string, input: unknown): boolean {
    const key = `${toolName}\u0000${canonicalJson(input)}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count >= this.limit) {
      this.repeated ??= { toolName, input };
      return true;
    }
    return false;
  }
}

/** The guard that ends the turn after a whole step, if any. */
export function guardAfterStep(
  limits: TurnLimits,
  state: { steps: number; usage: TokenUsage; wantsAnotherStep: boolean; repeated: boolean },
): StopReason | undefined {
  if (state.repeated) return 'repeated-call';
  if (state.usage.inputTokens + state.usage.outputTokens > limits.tokenBudget) return 'token-budget';
  if (state.wantsAnotherStep && state.steps >= limits.maxSteps) return 'max-steps';
  return undefined;
}
