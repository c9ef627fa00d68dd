import { Chalk, type ChalkInstance } from 'chalk';
import type { AgentEvent, TokenUsage } from '../agent/events.ts';

/** A stream the renderer writes to: stdout, stderr, or a test's buffer. */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Chalk for one stream: colour only when that stream is a terminal and NO_COLOR is unset. */
export function chalkFor(output: Output, environment: NodeJS.ProcessEnv = process.env): ChalkInstance {
  const colour = output.isTTY === true && !environment.NO_COLOR && environment.TERM !== 'dumb';
  return new Chalk({ level: colour || environment.FORCE_COLOR ? 1 : 0 });
}

const MAX_SUMMARY = 160;

/** One line of anything: the first line of text, whitespace squeezed, cut to fit. */
export function oneLine(value: unknown, width = MAX_SUMMARY): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : flat;
}

/** The first line of a tool result, and how many more there are. */
export function summariseResult(output: unknown, width = MAX_SUMMARY): string {
  if (typeof output !== 'string') return oneLine(output, width);
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const extra = lines.length - 1;
  const more = extra > 0 ? ` (+${extra} line${extra === 1 ? '' : 's'})` : '';
  return `${oneLine(lines[0] ?? '', width - more.length)}${more}`;
}

/** `get_weather(city: "北京")` — how a call is shown. */
export function formatCall(toolName: string, input: unknown): string {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const args = Object.entries(input as Record<string, unknown>)
      .map(([key, value]) => `${key}: ${oneLine(JSON.stringify(value), 60)}`)
      .join(', ');
    return `${toolName}(${args})`;
  }
  return `${toolName}(${input === undefined ? '' : oneLine(JSON.stringify(input), 80)})`;
}

export function formatUsage(usage: TokenUsage): string {
  const format = (count: number) => (count >= 10_000 ? `${(count / 1000).toFixed(1)}k` : count.toLocaleString('en-US'));
  return `${format(usage.inputTokens)} in · ${format(usage.outputTokens)} out`;
}

/**
 * Turns agent events into terminal text. Answer text goes to `text`; tool activity, notices and
 * the stop line go to `activity` (the same stream in the REPL, stderr in print mode).
 */
export class EventRenderer {
  private readonly textColour: ChalkInstance;
  private readonly activityColour: ChalkInstance;
  private textAtLineStart = true;
  private readonly sameStream: boolean;
  /** Answer text written this turn: print mode checks it ended with a newline. */
  wroteText = false;

  constructor(
    private readonly text: Output,
    private readonly activity: Output,
  ) {
    this.textColour = chalkFor(text);
    this.activityColour = chalkFor(activity);
    this.sameStream = text === activity;
  }

  render(event: AgentEvent): void {
    const dim = this.activityColour.dim;
    switch (event.type) {
      case 'text-delta':
        this.writeText(event.text);
        break;
      case 'reasoning-delta':
        this.writeText(this.textColour.dim.italic(event.text));
        break;
      case 'tool-call':
        this.activityLine(dim(`⏺ ${formatCall(event.toolName, event.input)}`));
        break;
      case 'tool-result':
        this.activityLine(dim(`  ⎿ ${summariseResult(event.output, this.width() - 6)}`));
        break;
      case 'tool-error':
        this.activityLine(this.activityColour.red(`  ⎿ ✗ ${oneLine(event.error, this.width() - 8)}`));
        break;
      case 'tool-denied':
        this.activityLine(this.activityColour.yellow(`  ⎿ denied${event.reason ? `: ${oneLine(event.reason, this.width() - 14)}` : ''}`));
        break;
      case 'notice':
        this.activityLine(dim(event.message));
        break;
      case 'turn-end':
        this.endText();
        if (event.stopReason !== 'completed' && event.message) {
          const colour = event.stopReason === 'error' ? this.activityColour.red : this.activityColour.yellow;
          this.activityLine(colour(`${event.stopReason === 'error' ? '✗' : '■'} ${event.message}`));
        }
        break;
      default:
        break;
    }
  }

  /** A dimmed line on the activity stream (usage, hints). */
  dimLine(text: string): void {
    this.activityLine(this.activityColour.dim(text));
  }

  /** Ends a half-written answer line so what follows starts on its own line. */
  endText(): void {
    if (!this.textAtLineStart) {
      this.text.write('\n');
      this.textAtLineStart = true;
    }
  }

  private writeText(chunk: string): void {
    if (chunk === '') return;
    this.text.write(chunk);
    this.wroteText = true;
    this.textAtLineStart = chunk.endsWith('\n');
  }

  private activityLine(line: string): void {
    if (this.sameStream) this.endText();
    this.activity.write(`${line}\n`);
  }

  private width(): number {
    return Math.max(40, Math.min(this.activity.columns ?? 100, 160));
  }
}
