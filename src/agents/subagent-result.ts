import type { ModelMessage } from 'ai';
import type { StopReason } from '../agent/loop/events.ts';
import type { TokenUsage } from '../shared/token-usage.ts';
import { digits } from '../shared/text/count-text.ts';

/** What the parent reads of a subagent at most: its answer, not its work. */
export const MAX_RESULT_CHARS = 12_000;

/** How a subagent ended, for its summary line and the parent's result. */
export interface SubagentOutcome {
  agent: string;
  stopReason: StopReason;
  steps: number;
  usage: TokenUsage;
  elapsedMs: number;
  message?: string;
}

/** The summary line the terminal keeps when the subagent's live line collapses: `explore · 3 steps · 1,234 tokens · 2.1 s`. */
export function summaryLine(outcome: SubagentOutcome): string {
  const tokens = outcome.usage.inputTokens + outcome.usage.outputTokens;
  const steps = `${outcome.steps} step${outcome.steps === 1 ? '' : 's'}`;
  const ended = outcome.stopReason === 'completed' ? '' : ` · stopped: ${outcome.stopReason}`;
  return `${outcome.agent} · ${steps} · ${digits(tokens)} tokens · ${(outcome.elapsedMs / 1000).toFixed(1)} s${ended}`;
}

/** The tool result the parent reads: the summary line, then the subagent's last answer, bounded. */
export function subagentResult(outcome: SubagentOutcome, messages: readonly ModelMessage[]): string {
  const answer = lastAnswer(messages);
  const bounded =
    answer.length > MAX_RESULT_CHARS
      ? `${answer.slice(0, MAX_RESULT_CHARS)}\n[… the subagent's answer was ${digits(answer.length)} characters; the first ${digits(MAX_RESULT_CHARS)} are shown]`
      : answer;
  const why = outcome.stopReason === 'completed' ? '' : `\nThe subagent did not finish: ${outcome.message ?? outcome.stopReason}.`;
  return `${summaryLine(outcome)}${why}\n\n${bounded || '(the subagent gave no answer)'}`;
}

/** The text of the last assistant message. */
function lastAnswer(messages: readonly ModelMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    if (typeof message.content === 'string') return message.content.trim();
    const text = message.content
      .filter((part) => part.type === 'text')
      .map((part) => (part as { text: string }).text)
      .join('')
      .trim();
    if (text !== '') return text;
  }
  return '';
}
