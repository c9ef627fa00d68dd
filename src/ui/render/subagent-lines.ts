import type { AgentEvent } from '../../agent/loop/events.ts';
import { formatCall } from '../../shared/text/call-text.ts';
import { formatDuration } from './tool-calls.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { digits } from '../../shared/text/count-text.ts';

type SubagentEvent = Extract<AgentEvent, { type: 'subagent' }>;

interface Running {
  agent: string;
  description: string;
  tool?: string;
  steps: number;
  tokens: number;
  startedAt: number;
  /** Its latest calls, for Ctrl+O. */
  calls: string[];
}

/** The calls Ctrl+O shows of each running subagent. */
const EXPANDED_CALLS = 5;

/**
 * The live lines of the subagents running now, one each, in the order they started:
 * `explore · find the config · read_file · step 2 · 1,234 tokens · 3s`. A subagent's line goes when
 * its `task` call ends (the call's finished line then carries its summary). Ctrl+O shows each one's
 * latest calls under its line.
 */
export class SubagentLines {
  private readonly running = new Map<string, Running>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes in one subagent event; true when the lines changed. */
  see(event: SubagentEvent): boolean {
    const inner = event.event;
    let line = this.running.get(event.agentId);
    if (!line) {
      if (inner.type === 'turn-end') return false;
      line = { agent: event.agent, description: event.description, steps: 0, tokens: 0, startedAt: this.now(), calls: [] };
      this.running.set(event.agentId, line);
    }
    switch (inner.type) {
      case 'step-start':
        line.steps = inner.step;
        return true;
      case 'step-end':
        line.tokens += inner.usage.inputTokens + inner.usage.outputTokens;
        return true;
      case 'tool-call':
        line.tool = inner.toolName;
        line.calls = [...line.calls, formatCall(inner.toolName, inner.input)].slice(-EXPANDED_CALLS);
        return true;
      case 'turn-end':
        this.running.delete(event.agentId);
        return true;
      default:
        return false;
    }
  }

  /** Forgets every line (the turn ended). */
  clear(): void {
    this.running.clear();
  }

  get size(): number {
    return this.running.size;
  }

  /** Ctrl+O: each running subagent's line and its latest calls under it, at most `rows` rows. */
  expandedRows(rows: number): string[] {
    const summaries = this.lines().split('\n');
    return [...this.running.values()].flatMap((line, index) => [summaries[index]!, ...line.calls.map((call) => `  ⎿ ${call}`)]).slice(-rows);
  }

  /** One line per running subagent, cleaned for the screen. */
  lines(): string {
    return [...this.running.values()]
      .map((line) =>
        [
          line.agent,
          line.description,
          line.tool ?? 'thinking',
          `step ${line.steps}`,
          `${digits(line.tokens)} tokens`,
          formatDuration(this.now() - line.startedAt),
        ]
          .map((part) => sanitizeLine(part))
          .join(' · '),
      )
      .join('\n');
  }
}
