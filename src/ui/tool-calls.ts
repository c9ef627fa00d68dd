import type { ChalkInstance } from 'chalk';
import type { AgentEvent } from '../agent/events.ts';
import { formatCall, summariseResult } from './render.ts';
import { sanitize } from './sanitize.ts';

type Finished = Extract<AgentEvent, { type: 'tool-result' | 'tool-error' | 'tool-denied' }>;

/** One tool call of a turn, as the user saw it; `/last` prints the whole output of these. */
export interface ToolCallRecord {
  toolName: string;
  input: unknown;
  startedAt: number;
  endedAt?: number;
  outcome?: { kind: 'result'; output: unknown } | { kind: 'error'; error: string } | { kind: 'denied'; reason?: string };
}

/** The tool calls of one turn, in the order they were made, with when each started and ended. */
export class ToolCallLog {
  private readonly byId = new Map<string, ToolCallRecord>();
  readonly records: ToolCallRecord[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  start(event: Extract<AgentEvent, { type: 'tool-call' }>): ToolCallRecord {
    const record: ToolCallRecord = { toolName: event.toolName, input: event.input, startedAt: this.now() };
    this.byId.set(event.toolCallId, record);
    this.records.push(record);
    return record;
  }

  finish(event: Finished): ToolCallRecord {
    const record = this.byId.get(event.toolCallId) ?? this.start({ type: 'tool-call', toolCallId: event.toolCallId, toolName: event.toolName, input: undefined });
    record.endedAt = this.now();
    if (event.type === 'tool-result') record.outcome = { kind: 'result', output: event.output };
    else if (event.type === 'tool-error') record.outcome = { kind: 'error', error: event.error };
    else record.outcome = { kind: 'denied', reason: event.reason };
    return record;
  }

  /** Calls still running, oldest first. */
  get running(): ToolCallRecord[] {
    return this.records.filter((record) => record.endedAt === undefined);
  }
}

/** Feeds a log from a turn's events (when no renderer keeps one). */
export function trackToolEvent(log: ToolCallLog, event: AgentEvent): void {
  if (event.type === 'tool-call') log.start(event);
  else if (event.type === 'tool-result' || event.type === 'tool-error' || event.type === 'tool-denied') log.finish(event);
}

/** `0.3s`, `12s`, `2m 5s`. */
export function formatDuration(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  if (seconds < 60) return `${Math.round(seconds)}s`;
  return `${Math.floor(seconds / 60)}m ${Math.round(seconds % 60)}s`;
}

/**
 * The two lines of a finished call: `✓ name(args) · 0.3s` and its result, dimmed, on one line. A
 * call redrawn from a saved session has no duration (`timed` false).
 */
export function finishedCallLines(record: ToolCallRecord, colour: ChalkInstance, width: number, timed = true): string[] {
  const call = formatCall(record.toolName, record.input);
  const took = timed ? colour.dim(` · ${formatDuration((record.endedAt ?? record.startedAt) - record.startedAt)}`) : '';
  const outcome = record.outcome;
  if (outcome?.kind === 'result') {
    return [`${colour.green('✓')} ${call}${took}`, colour.dim(`  ⎿ ${summariseResult(outcome.output, width - 6)}`)];
  }
  const why = outcome?.kind === 'error' ? outcome.error : outcome?.reason ? `denied: ${outcome.reason}` : 'denied';
  const mark = outcome?.kind === 'error' ? colour.red('✗') : colour.yellow('✗');
  return [`${mark} ${call}${took}`, colour.dim(`  ⎿ ${summariseResult(why, width - 6)}`)];
}

/** What `/last` prints: each call of the last turn and its whole output, sanitised. */
export function fullToolOutput(records: readonly ToolCallRecord[], dim: (text: string) => string): string[] {
  if (records.length === 0) return ['  The last turn called no tools.'];
  const lines: string[] = [];
  for (const record of records) {
    const took = record.endedAt === undefined ? 'did not finish' : formatDuration(record.endedAt - record.startedAt);
    lines.push(`${formatCall(record.toolName, record.input)}${dim(` · ${took}`)}`);
    const outcome = record.outcome;
    const body =
      outcome === undefined
        ? '(no result)'
        : outcome.kind === 'result'
          ? typeof outcome.output === 'string'
            ? outcome.output
            : (JSON.stringify(outcome.output, null, 2) ?? String(outcome.output))
          : outcome.kind === 'error'
            ? `error: ${outcome.error}`
            : `denied${outcome.reason ? `: ${outcome.reason}` : ''}`;
    for (const line of sanitize(body).split('\n')) lines.push(`  ${line}`);
  }
  return lines;
}
