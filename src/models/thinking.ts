import { ConfigError } from '../shared/config-error.ts';
import { thinkingSupportOf } from './model-catalogue.ts';
import { digits } from '../shared/text/count-text.ts';

/** `auto` leaves the model's own default (DashScope: hybrid models answer without thinking). */
export type ThinkingMode = 'on' | 'off' | 'auto';

export interface ThinkingSetting {
  mode: ThinkingMode;
  /** Most tokens to think before answering (`thinking_budget`). */
  budget?: number;
}

const MAX_THINKING_BUDGET = 1_000_000;

function budgetFrom(raw: string, name: string): number {
  const trimmed = raw.trim();
  const value = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(value) || value < 1 || value > MAX_THINKING_BUDGET) {
    throw new ConfigError(`${name} must be a whole number from 1 to ${MAX_THINKING_BUDGET}, got "${raw}".`);
  }
  return value;
}

/** `--think` / `--no-think` / `--thinking-budget N` over `SYLVAN_THINKING` / `SYLVAN_THINKING_BUDGET`. */
export function parseThinkingOptions(
  values: { think?: boolean; 'no-think'?: boolean; 'thinking-budget'?: string },
  env: Record<string, string | undefined>,
): ThinkingSetting {
  if (values.think && values['no-think']) throw new ConfigError('Use either --think or --no-think, not both.');
  let mode: ThinkingMode = 'auto';
  const variable = env.SYLVAN_THINKING?.trim().toLowerCase();
  if (variable !== undefined && variable !== '') {
    if (variable !== 'on' && variable !== 'off' && variable !== 'auto') {
      throw new ConfigError(`SYLVAN_THINKING must be on, off or auto, got "${env.SYLVAN_THINKING}".`);
    }
    mode = variable;
  }
  if (values.think) mode = 'on';
  if (values['no-think']) mode = 'off';
  const rawBudget = values['thinking-budget'] ?? env.SYLVAN_THINKING_BUDGET;
  const name = values['thinking-budget'] !== undefined ? '--thinking-budget' : 'SYLVAN_THINKING_BUDGET';
  const budget = rawBudget !== undefined && rawBudget.trim() !== '' ? budgetFrom(rawBudget, name) : undefined;
  // A budget alone asks for thinking: it would mean nothing otherwise.
  if (budget !== undefined && mode === 'auto') mode = 'on';
  return budget === undefined ? { mode } : { mode, budget };
}

/** What goes to DashScope for this model: `enable_thinking` / `thinking_budget`, or nothing. */
export function thinkingRequest(
  model: string,
  setting: ThinkingSetting,
  purpose: 'answer' | 'compaction',
): { enableThinking?: boolean; thinkingBudget?: number } {
  const support = thinkingSupportOf(model);
  if (support === 'never') return {};
  const budget = setting.budget !== undefined ? { thinkingBudget: setting.budget } : {};
  // Thinking-only models refuse enable_thinking: false; they always think.
  if (support === 'always') return purpose === 'answer' ? budget : {};
  if (purpose === 'compaction' || setting.mode === 'off') return { enableThinking: false };
  if (setting.mode === 'on') return { enableThinking: true, ...budget };
  return {};
}

/** "thinking on (budget 2,000 tokens)", "qwq-plus always thinks", for /think and the banner. */
export function describeThinking(model: string, setting: ThinkingSetting): string {
  const support = thinkingSupportOf(model);
  const budget = setting.budget !== undefined ? ` (budget ${digits(setting.budget)} tokens)` : '';
  if (support === 'always') return `${model} always thinks${budget}`;
  if (support === 'never') return `${model} has no thinking mode`;
  if (setting.mode === 'auto') return `thinking: the model's default for ${model}${budget}`;
  return `thinking ${setting.mode} for ${model}${setting.mode === 'on' ? budget : ''}`;
}

/** `/think`, `/think on|off|auto`, `/think budget N`: the new setting, or a line saying what is wrong. */
export function parseThinkCommand(argument: string, current: ThinkingSetting): ThinkingSetting | { error: string } {
  const words = argument.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const [first, second] = words;
  if (first === undefined) return current;
  if ((first === 'on' || first === 'off' || first === 'auto') && words.length === 1) return { ...current, mode: first };
  if (first === 'budget' && second !== undefined && words.length === 2) {
    try {
      return { mode: current.mode === 'off' ? 'on' : current.mode, budget: budgetFrom(second, 'The budget') };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }
  return { error: 'Usage: /think [on|off|auto|budget N]' };
}
