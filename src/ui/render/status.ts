import type { ChalkInstance } from 'chalk';
import { cutToWidth, displayWidth } from '../../shared/text/display-width.ts';
import { LiveArea, liveWidth } from './live-area.ts';
import type { TypeAhead } from '../input/line-reader-contract.ts';
import type { Output } from './render.ts';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 100;
/** The shortest time between two frames of the text being written: about 40 a second, as terminals draw. */
export const FRAME_MS = 25;
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
  private pending: readonly string[] | (() => readonly string[]) = [];
  private progress: string[] = [];
  private checklist: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  /** When the live rows were last drawn, and the frame waiting to be drawn (a stream's chunks come faster than frames). */
  private drawnAt = Number.NEGATIVE_INFINITY;
  private nextFrame: NodeJS.Timeout | undefined;
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
    /** The shortest time between two frames drawn for `setPending`, `print` and `stop` (0: each draws at once). */
    private readonly frameMs = FRAME_MS,
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

  /** Hides the status line (the pending block, if any, stays) in the next frame, or in the one a change drawn next asks for (`redraw` false). */
  stop(redraw = true): void {
    this.label = undefined;
    this.countdown = undefined;
    this.progress = [];
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (redraw) this.requestFrame();
  }

  /**
   * The answer block still being written, shown above the status line: its rows, drawn at once, or
   * a function that makes them, called only when a frame is drawn (at most one each `frameMs`), so a
   * stream's chunks cost no drawing of their own.
   */
  setPending(rows: readonly string[] | (() => readonly string[])): void {
    this.pending = typeof rows === 'function' ? rows : [...rows];
    if (typeof rows === 'function') {
      this.watchTyping();
      this.requestFrame();
      return;
    }
    if (rows.length > 0) this.watchTyping();
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

  /** Prints lasting text: the live rows are erased first and drawn again below it (in the next frame). */
  print(text: string): void {
    this.area.print(text);
    this.requestFrame();
  }

  /** Erases everything live and stops the clock: before a prompt, at the end of a turn. */
  close(): void {
    this.unwatch?.();
    this.unwatch = undefined;
    this.above = [];
    this.pending = [];
    this.checklist = [];
    this.stop();
    this.cancelFrame();
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

  /** Draws now if the last frame is `frameMs` old, else once it is; never keeps the process alive for it. */
  private requestFrame(): void {
    if (this.nextFrame) return;
    // At most one frame away, even if the clock went back.
    const wait = Math.min(this.frameMs, this.drawnAt + this.frameMs - this.now());
    if (wait <= 0) {
      this.draw();
      return;
    }
    this.nextFrame = setTimeout(() => this.draw(), wait);
    this.nextFrame.unref?.();
  }

  private cancelFrame(): void {
    if (this.nextFrame) clearTimeout(this.nextFrame);
    this.nextFrame = undefined;
  }

  private draw(): void {
    this.cancelFrame();
    this.drawnAt = this.now();
    const pending = typeof this.pending === 'function' ? this.pending() : this.pending;
    const lines = [...this.above, ...pending, ...this.checklist];
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
