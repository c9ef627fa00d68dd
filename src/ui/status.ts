import type { ChalkInstance } from 'chalk';
import { cutToWidth, displayWidth } from './display-width.ts';
import { LiveArea, liveWidth } from './live-area.ts';
import type { TypeAhead } from './input/line-reader-contract.ts';
import type { Output } from './render.ts';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 100;
/** A running tool's output shown under the status line: its last few lines. */
export const PROGRESS_LINES = 4;

/**
 * The live bottom of the terminal while a turn runs: the block of the answer still being
 * written (plain), the model's todo checklist when it keeps one, then a status line — spinner,
 * what is happening, elapsed seconds (or the seconds until a retry), `esc to cancel` — a running
 * tool's latest output, dimmed, and last what the user types meanwhile, the cursor in it. Only on
 * a terminal; it is erased before anything lasting is printed, so none of it stays in the scrollback.
 */
export class LiveStatus {
  private readonly area: LiveArea;
  private label: string | undefined;
  private startedAt = 0;
  private above: string[] = [];
  private pending: string[] = [];
  private progress: string[] = [];
  private checklist: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  /** A wait before a retry: its line, with the seconds left, replaces the label until `until`. */
  private countdown: { until: number; line: (secondsLeft: number) => string } | undefined;
  /** Set while the typed-ahead rows are drawn: from the first thing shown until `close`. */
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly output: Output,
    private readonly colour: ChalkInstance,
    private readonly now: () => number = Date.now,
    /** Shown after the clock, e.g. "plan mode"; nothing when it returns undefined. */
    private readonly tag: () => string | undefined = () => undefined,
    /** What the user types while this is shown (the line editor's), drawn under everything else. */
    private readonly typeAhead?: TypeAhead,
  ) {
    this.area = new LiveArea(output);
  }

  /** Shows `label` (e.g. "Thinking…") with a spinner and a clock started now; a new label restarts the clock. */
  start(label: string): void {
    this.setLabel(label);
    this.draw();
  }

  /**
   * A wait of `milliseconds` before a request is sent again: `line(seconds left)` counts down in
   * the status line, then `label` shows with its clock started from the end of the wait.
   */
  countDown(milliseconds: number, line: (secondsLeft: number) => string, label: string): void {
    this.setLabel(label);
    const until = this.now() + milliseconds;
    this.startedAt = until;
    this.countdown = { until, line };
    this.draw();
  }

  /** Hides the status line (the pending block, if any, stays). */
  stop(): void {
    this.label = undefined;
    this.countdown = undefined;
    this.progress = [];
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.draw();
  }

  /** The plain text of the answer block still being written, shown above the status line. */
  setPending(lines: readonly string[]): void {
    this.pending = [...lines];
    if (lines.length > 0) this.watchTyping();
    this.draw();
  }

  /** The model's todo list as rows (styled and sanitised by the caller), drawn just above the status line. */
  setChecklist(rows: readonly string[]): void {
    this.checklist = [...rows];
    this.draw();
  }

  /** Rows shown first, above the pending block (an expanded tool result, Ctrl+O); none hides them. */
  setAbove(rows: readonly string[]): void {
    this.above = [...rows];
    this.draw();
  }

  /** A running tool's latest output (sanitised by the caller): its last lines, under the status line. */
  /** A running command's latest lines, as a whole (run_command reports its newest lines each time, not what is new). */
  showProgress(text: string): void {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    this.progress = lines.slice(-PROGRESS_LINES);
    this.draw();
  }

  /** Prints lasting text: the live rows are erased first and drawn again below it. */
  print(text: string): void {
    this.area.print(text);
    this.draw();
  }

  /** Erases everything live and stops the clock: before a prompt, at the end of a turn. */
  close(): void {
    this.unwatch?.();
    this.unwatch = undefined;
    this.above = [];
    this.pending = [];
    this.checklist = [];
    this.stop();
    this.area.clear();
  }

  get running(): boolean {
    return this.label !== undefined;
  }

  private setLabel(label: string): void {
    if (this.label !== label) this.startedAt = this.now();
    this.label = label;
    this.countdown = undefined;
    this.progress = [];
    this.watchTyping();
    this.timer ??= setInterval(() => {
      this.frame = (this.frame + 1) % SPINNER.length;
      this.draw();
    }, TICK_MS);
    this.timer.unref?.();
  }

  /** From now until `close`, what the user types is drawn too, and each key redraws. */
  private watchTyping(): void {
    if (this.typeAhead && !this.unwatch) this.unwatch = this.typeAhead.watch(() => this.draw());
  }

  private draw(): void {
    const lines = [...this.above, ...this.pending, ...this.checklist];
    const width = liveWidth(this.output);
    if (this.label !== undefined) {
      const spinner = this.colour.cyan(SPINNER[this.frame]);
      const tag = this.tag();
      const left = this.countdown && this.now() < this.countdown.until ? this.countdown.until - this.now() : undefined;
      const seconds = Math.floor((this.now() - this.startedAt) / 1000);
      const hint =
        left === undefined ? `(${seconds}s · esc to cancel${tag ? ` · ${tag}` : ''})` : `· esc to cancel${tag ? ` · ${tag}` : ''}`;
      const label = left === undefined ? this.label : this.countdown!.line(Math.ceil(left / 1000));
      // One row each, always: a status that wrapped would leave its first row behind when erased after a resize.
      lines.push(`${spinner} ${cutToWidth(label, width - displayWidth(hint) - 3)} ${this.colour.dim(hint)}`);
      for (const line of this.progress) lines.push(this.colour.dim(`  ${cutToWidth(line, width - 2)}`));
    }
    const typed = this.unwatch ? this.typeAhead?.view(width) : undefined;
    if (typed) lines.push(...typed.rows);
    if (lines.length === 0) this.area.clear();
    else this.area.show(lines, typed?.rows.length ? typed.cursor : undefined);
  }
}
