import type { BreakerThresholds, TrippedBreaker } from './circuit-breaker.ts';
import type { StopReason } from './events.ts';
import type { TokenUsage } from '../../shared/token-usage.ts';
import { canonicalJson } from './call-signature.ts';
import { digits } from '../../shared/text/count-text.ts';

export { canonicalJson };

/** Limits that end a turn before the model does. */
export interface TurnLimits {
  /** Model requests per turn. */
  maxSteps: number;
  /** Input + output tokens summed over the turn's steps. */
  tokenBudget: number;
  /** How many identical calls (same tool, same arguments) a turn may make before it is stopped. */
  maxIdenticalCalls: number;
  /** When the circuit breaker warns and stops (near-identical calls, cycles, failures, no progress); defaults apply without. */
  breaker?: BreakerThresholds;
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
  state: { steps: number; usage: TokenUsage; wantsAnotherStep: boolean; repeated: boolean; budget?: StopReason },
): StopReason | undefined {
  if (state.repeated) return 'repeated-call';
  if (state.usage.inputTokens + state.usage.outputTokens > limits.tokenBudget) return 'token-budget';
  if (state.wantsAnotherStep && state.budget) return state.budget;
  if (state.wantsAnotherStep && state.steps >= limits.maxSteps) return 'max-steps';
  return undefined;
}

/** The one line the user reads when a guard ended the turn. */
export function guardMessage(
  reason: StopReason,
  state: { limits: TurnLimits; usage: TokenUsage; steps: number; repeated?: { toolName: string; input: unknown }; breaker?: TrippedBreaker },
): string {
  switch (reason) {
    case 'repeated-call': {
      if (!state.repeated && state.breaker) {
        return `Stopped (${state.breaker.pattern}): ${state.breaker.description}. Rephrase the request or ask for something else; the thresholds are circuitBreaker in settings.`;
      }
      const call = state.repeated ? `${state.repeated.toolName} ${canonicalJson(state.repeated.input)}` : 'a tool';
      return `Stopped: the model called ${call} ${state.limits.maxIdenticalCalls} times with the same arguments. Rephrase the request or ask for something else.`;
    }
    case 'token-budget': {
      const used = state.usage.inputTokens + state.usage.outputTokens;
      return `Stopped: this turn used ${digits(used)} tokens, over the budget of ${digits(state.limits.tokenBudget)} (--token-budget / SYLVAN_TOKEN_BUDGET).`;
    }
    case 'max-steps':
      return `Stopped after ${state.steps} steps (--max-steps / SYLVAN_MAX_STEPS) while the model was still calling tools. Say "continue" to let it go on, or raise the limit.`;
    default:
      return `Stopped: ${reason}.`;
  }
}
