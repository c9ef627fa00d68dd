import { Chalk, type ChalkInstance } from 'chalk';
import type { AgentEvent } from '../../agent/loop/events.ts';
import type { TokenUsage } from '../../shared/token-usage.ts';
import { CutOffWatch } from './cut-off-notice.ts';
import { formatCall, oneLine } from '../../shared/text/call-text.ts';
import { retryLine } from './retry-line.ts';
import { sanitize, sanitizeLine } from '../../shared/text/sanitize.ts';
import { digits } from '../../shared/text/count-text.ts';

/** A stream the renderer writes to: stdout, stderr, or a test's buffer. */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
  /**
   * The environment whose NO_COLOR, FORCE_COLOR and TERM this stream's colour follows, when it is
   * not the process's own (a test's in-process run).
   */
  environment?: NodeJS.ProcessEnv;
}

/**
 * Chalk for one stream: colour only when that stream is a terminal and NO_COLOR is unset;
 * FORCE_COLOR forces it on, except the conventional "0" and "false".
 */
export function chalkFor(output: Output, environment: NodeJS.ProcessEnv = output.environment ?? process.env): ChalkInstance {
  const forced = environment.FORCE_COLOR;
  if (forced !== undefined && forced !== '') return new Chalk({ level: /^(0|false)$/i.test(forced) ? 0 : 1 });
  const colour = output.isTTY === true && !environment.NO_COLOR && environment.TERM !== 'dumb';
  return new Chalk({ level: colour ? 1 : 0 });
}

const MAX_SUMMARY = 160;
/** How many of a running command's latest lines are shown under its call. */
const PROGRESS_LINES = 3;


/** The first line of a tool result, and how many more there are. */
export function summariseResult(output: unknown, width = MAX_SUMMARY): string {
  if (typeof output !== 'string') return oneLine(output, width);
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const extra = lines.length - 1;
  const more = extra > 0 ? ` (+${extra} line${extra === 1 ? '' : 's'})` : '';
  return `${oneLine(lines[0] ?? '', width - more.length)}${more}`;
}


export function formatUsage(usage: TokenUsage): string {
  const format = (count: number) => (count >= 10_000 ? `${(count / 1000).toFixed(1)}k` : digits(count));
  return `${format(usage.inputTokens)} in · ${format(usage.outputTokens)} out`;
}

/**
 * Turns agent events into terminal text. Answer text goes to `text`; tool activity, notices and
 * the stop line go to `activity` (the same stream in the REPL, stderr in print mode).
 */
export class EventRenderer {
  private readonly activityColour: ChalkInstance;
  private textAtLineStart = true;
  /** A line of reasoning is being written on the activity stream. */
  private reasoningOpen = false;
  private readonly sameStream: boolean;
  /** Lines of a running tool's live output drawn last; erased before anything else is written. */
  private progressLines = 0;
  private readonly cutOff = new CutOffWatch();

  constructor(
    private readonly text: Output,
    private readonly activity: Output,
  ) {
    this.activityColour = chalkFor(activity);
    this.sameStream = text === activity;
  }

  render(event: AgentEvent): void {
    const dim = this.activityColour.dim;
    if (event.type !== 'tool-progress') this.eraseProgress();
    const cutOff = this.cutOff.see(event);
    if (cutOff) this.activityLine(dim(cutOff));
    switch (event.type) {
      case 'text-delta':
        this.writeText(event.text);
        break;
      case 'reasoning-delta':
        // Thinking is activity, not answer: it never reaches stdout in print mode.
        if (event.text === '') break;
        if (this.sameStream) this.endText();
        this.activity.write(this.activityColour.dim.italic(sanitize(event.text)));
        this.reasoningOpen = !event.text.endsWith('\n');
        break;
      case 'tool-call':
        this.activityLine(dim(`⏺ ${formatCall(event.toolName, event.input)}`));
        break;
      case 'tool-result':
        this.activityLine(dim(`  ⎿ ${summariseResult(event.output, this.width() - 6)}`));
        break;
      case 'tool-error': {
        // A call that was ended says so in the user's words, not in the words its error wrote for the model.
        const why = event.stopped === 'interrupted' ? 'interrupted' : event.stopped === 'timed-out' ? 'timed out' : event.error;
        this.activityLine(this.activityColour.red(`  ⎿ ✗ ${oneLine(why, this.width() - 8)}`));
        break;
      }
      case 'tool-denied':
        this.activityLine(this.activityColour.yellow(`  ⎿ denied${event.reason ? `: ${oneLine(event.reason, this.width() - 14)}` : ''}`));
        break;
      case 'notice':
        this.activityLine(dim(sanitize(event.message)));
        break;
      case 'tool-progress':
        this.drawProgress(event.text);
        break;
      case 'subagent':
        // A subagent's calls, named by it; its answer reaches the main model, not the screen.
        if (event.event.type === 'tool-call') this.activityLine(dim(`  ${sanitizeLine(event.agent)} › ${formatCall(event.event.toolName, event.event.input)}`));
        break;
      case 'retry':
        // For a person watching (print mode on a terminal); a pipe's reader gets the answer or the one error line.
        if (this.activity.isTTY === true) this.activityLine(dim(retryLine(event)));
        break;
      case 'turn-end':
        this.endReasoning();
        this.endText();
        if (event.stopReason !== 'completed' && event.message) {
          const colour = event.stopReason === 'error' ? this.activityColour.red : this.activityColour.yellow;
          this.activityLine(colour(`${event.stopReason === 'error' ? '✗' : '■'} ${sanitize(event.message)}`));
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

  private endReasoning(): void {
    if (this.reasoningOpen) {
      this.activity.write('\n');
      this.reasoningOpen = false;
    }
  }

  private writeText(chunk: string): void {
    if (chunk === '') return;
    this.endReasoning();
    this.text.write(sanitize(chunk));
    this.textAtLineStart = chunk.endsWith('\n');
  }

  /** A whole line of activity; a half-written answer line is ended first, on its own stream. */
  private activityLine(line: string): void {
    this.endReasoning();
    this.endText();
    this.activity.write(`${line}\n`);
  }

  /** A running tool's latest lines, dimmed, redrawn in place; only on a terminal (a pipe gets the result alone). */
  private drawProgress(text: string): void {
    if (this.activity.isTTY !== true) return;
    this.eraseProgress();
    this.endReasoning();
    this.endText();
    const lines = text.split('\n').slice(-PROGRESS_LINES).map((line) => sanitizeLine(oneLine(line, this.width() - 6)));
    for (const line of lines) this.activity.write(`${this.activityColour.dim(`  │ ${line}`)}\n`);
    this.progressLines = lines.length;
  }

  private eraseProgress(): void {
    if (this.progressLines === 0) return;
    this.activity.write(`\x1b[${this.progressLines}A\r\x1b[J`);
    this.progressLines = 0;
  }

  private width(): number {
    return Math.max(40, Math.min(this.activity.columns ?? 100, 160));
  }
}
