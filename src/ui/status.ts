import type { ChalkInstance } from 'chalk';
import { cutToWidth, displayWidth } from './display-width.ts';
import { LiveArea, liveWidth } from './live-area.ts';
import type { Output } from './render.ts';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 100;
/** A running tool's output shown under the status line: its last few lines. */
export const PROGRESS_LINES = 4;

/**
 * The live bottom of the terminal while a turn runs: the block of the answer still being
 * written (plain), then a status line — spinner, what is happening, elapsed seconds,
 * `esc to cancel` — and a running tool's latest output, dimmed. Only on a terminal; it is
 * erased before anything lasting is printed, so none of it stays in the scrollback.
 */
export class LiveStatus {
  private readonly area: LiveArea;
  private label: string | undefined;
  private startedAt = 0;
  private above: string[] = [];
  private pending: string[] = [];
  private progress: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;

  constructor(
    private readonly output: Output,
    private readonly colour: ChalkInstance,
    private readonly now: () => number = Date.now,
    /** Shown after the clock, e.g. "plan mode"; nothing when it returns undefined. */
    private readonly tag: () => string | undefined = () => undefined,
  ) {
    this.area = new LiveArea(output);
  }

  /** Shows `label` (e.g. "Thinking…") with a spinner and a clock started now; a new label restarts the clock. */
  start(label: string): void {
    if (this.label !== label) this.startedAt = this.now();
    this.label = label;
    this.progress = [];
    this.timer ??= setInterval(() => {
      this.frame = (this.frame + 1) % SPINNER.length;
      this.draw();
    }, TICK_MS);
    this.timer.unref?.();
    this.draw();
  }

  /** Hides the status line (the pending block, if any, stays). */
  stop(): void {
    this.label = undefined;
    this.progress = [];
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.draw();
  }

  /** The plain text of the answer block still being written, shown above the status line. */
  setPending(lines: readonly string[]): void {
    this.pending = [...lines];
    this.draw();
  }

  /** Rows shown first, above the pending block (an expanded tool result, Ctrl+O); none hides them. */
  setAbove(rows: readonly string[]): void {
    this.above = [...rows];
    this.draw();
  }

  /** A running tool's latest output (sanitised by the caller): its last lines, under the status line. */
  addProgress(text: string): void {
    const lines = [...this.progress, ...text.split('\n')].filter((line) => line.trim() !== '');
    this.progress = lines.slice(-PROGRESS_LINES);
    this.draw();
  }

  clearProgress(): void {
    this.progress = [];
    this.draw();
  }

  /** Prints lasting text: the live rows are erased first and drawn again below it. */
  print(text: string): void {
    this.area.print(text);
    this.draw();
  }

  /** Erases everything live and stops the clock: before a prompt, at the end of a turn. */
  close(): void {
    this.above = [];
    this.pending = [];
    this.stop();
    this.area.clear();
  }

  get running(): boolean {
    return this.label !== undefined;
  }

  private draw(): void {
    const lines = [...this.above, ...this.pending];
    if (this.label !== undefined) {
      const seconds = Math.floor((this.now() - this.startedAt) / 1000);
      const spinner = this.colour.cyan(SPINNER[this.frame]);
      const tag = this.tag();
      const hint = `(${seconds}s · esc to cancel${tag ? ` · ${tag}` : ''})`;
      // One row each, always: a status that wrapped would leave its first row behind when erased after a resize.
      const width = liveWidth(this.output);
      lines.push(`${spinner} ${cutToWidth(this.label, width - displayWidth(hint) - 3)} ${this.colour.dim(hint)}`);
      for (const line of this.progress) lines.push(this.colour.dim(`  ${cutToWidth(line, width - 2)}`));
    }
    if (lines.length === 0) this.area.clear();
    else this.area.show(lines);
  }
}
