import type { AgentEvent, ToolStop } from '../../agent/loop/events.ts';
import { formatCall } from '../../shared/text/call-text.ts';
import { sanitize } from '../../shared/text/sanitize.ts';

type Finished = Extract<AgentEvent, { type: 'tool-result' | 'tool-error' | 'tool-denied' }>;

/** One tool call of a turn, as the user saw it; `/last` and Ctrl+O show the whole output of these. */
export interface ToolCallRecord {
  toolCallId: string;
  toolName: string;
  input: unknown;
  startedAt: number;
  endedAt?: number;
  outcome?: { kind: 'result'; output: unknown } | { kind: 'error'; error: string; stopped?: ToolStop } | { kind: 'denied'; reason?: string };
  /** The latest lines a running command showed (sanitised for the screen): kept when it is stopped. */
  progress?: string[];
  /** Where its whole output was saved, when it was too long for the screen. */
  savedAt?: string;
}

/** The tool calls of one turn, in the order they were made, with when each started and ended. */
export class ToolCallLog {
  private readonly byId = new Map<string, ToolCallRecord>();
  readonly records: ToolCallRecord[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  start(event: Extract<AgentEvent, { type: 'tool-call' }>): ToolCallRecord {
    const record: ToolCallRecord = { toolCallId: event.toolCallId, toolName: event.toolName, input: event.input, startedAt: this.now() };
    this.byId.set(event.toolCallId, record);
    this.records.push(record);
    return record;
  }

  finish(event: Finished): ToolCallRecord {
    const record = this.byId.get(event.toolCallId) ?? this.start({ type: 'tool-call', toolCallId: event.toolCallId, toolName: event.toolName, input: undefined });
    record.endedAt = this.now();
    if (event.type === 'tool-result') record.outcome = { kind: 'result', output: event.output };
    else if (event.type === 'tool-error') record.outcome = { kind: 'error', error: event.error, ...(event.stopped && { stopped: event.stopped }) };
    else record.outcome = { kind: 'denied', reason: event.reason };
    return record;
  }

  /** A call that never got its result (the turn was stopped around it) ends as `stopped`. */
  stop(record: ToolCallRecord, stopped: ToolStop): void {
    record.endedAt = this.now();
    record.outcome = { kind: 'error', error: stopped === 'interrupted' ? 'interrupted' : 'timed out', stopped };
  }

  get(toolCallId: string): ToolCallRecord | undefined {
    return this.byId.get(toolCallId);
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

/** `interrupted after 5.0 s`, `timed out after 30.0 s`: how a call that was ended ended. */
export function stoppedAfter(record: ToolCallRecord, stopped: ToolStop): string {
  const seconds = ((record.endedAt ?? record.startedAt) - record.startedAt) / 1000;
  return `${stopped === 'interrupted' ? 'interrupted' : 'timed out'} after ${seconds.toFixed(1)} s`;
}

/**
 * The whole output of a call as text, unsanitised: its result (JSON for a value), its error, why it
 * was denied, or, for a call that was ended, the last lines it showed and how it ended.
 */
export function outputText(record: ToolCallRecord): string {
  const outcome = record.outcome;
  if (outcome === undefined) return '(no result)';
  if (outcome.kind === 'result') {
    return typeof outcome.output === 'string' ? outcome.output : (JSON.stringify(outcome.output, null, 2) ?? String(outcome.output));
  }
  if (outcome.kind === 'denied') return `denied${outcome.reason ? `: ${outcome.reason}` : ''}`;
  if (outcome.stopped) return [...(record.progress ?? []), stoppedAfter(record, outcome.stopped)].join('\n');
  return `error: ${outcome.error}`;
}

/** What `/last` prints: each call of the last turn and its whole output, sanitised. */
export function fullToolOutput(records: readonly ToolCallRecord[], dim: (text: string) => string): string[] {
  if (records.length === 0) return ['  The last turn called no tools.'];
  const lines: string[] = [];
  for (const record of records) {
    const took = record.endedAt === undefined ? 'did not finish' : formatDuration(record.endedAt - record.startedAt);
    lines.push(`${formatCall(record.toolName, record.input)}${dim(` · ${took}`)}`);
    for (const line of sanitize(outputText(record)).split('\n')) lines.push(`  ${line}`);
  }
  return lines;
}
