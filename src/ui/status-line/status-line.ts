import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { runStatusCommand } from './run-status-command.ts';

/** The row is refreshed at most this often, however often it is asked. */
const STATUS_LINE_INTERVAL_MS = 300;
/** The longest row kept (the screen cuts it to its width again). */
const MAX_ROW_CHARACTERS = 500;

export interface StatusLineOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  /** Called with each new row, sanitised and bounded. */
  onChange: (row: string) => void;
  now?: () => number;
}

/**
 * The user's status line: the settings' command, run with the session as JSON on stdin whenever the
 * REPL asks (`refresh`), at most one run at a time and at most every 300 ms; a request in between is
 * served once the wait is over, with the input as it is then. Nothing waits for it: the prompt shows
 * the last row it had (or the default one) until a new one arrives.
 */
export class StatusLine {
  row: string | undefined;
  private running = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private pending: (() => object) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly controller = new AbortController();
  private readonly now: () => number;

  constructor(private readonly options: StatusLineOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Asks for a new row from `input()` (read when the run starts). */
  refresh(input: () => object): void {
    this.pending = input;
    this.schedule();
  }

  /** Kills a run under way; no more runs. */
  close(): void {
    this.controller.abort();
    clearTimeout(this.timer);
    this.pending = undefined;
  }

  private schedule(): void {
    if (this.running || this.timer || !this.pending || this.controller.signal.aborted) return;
    const wait = this.lastStart + STATUS_LINE_INTERVAL_MS - this.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      this.timer.unref();
      return;
    }
    void this.run(this.pending);
  }

  private async run(input: () => object): Promise<void> {
    this.pending = undefined;
    this.running = true;
    this.lastStart = this.now();
    let text: string;
    try {
      text = JSON.stringify(input());
    } catch {
      text = '{}';
    }
    const line = await runStatusCommand(this.options.command, text, { cwd: this.options.cwd, timeoutMs: this.options.timeoutMs, signal: this.controller.signal });
    this.running = false;
    if (line !== undefined && !this.controller.signal.aborted) {
      // Colour (SGR) sequences are dropped rather than shown as symbols; every other control character passes the sanitiser.
      const row = sanitizeLine(line.replace(/\x1b\[[0-9;]*m/g, '')).slice(0, MAX_ROW_CHARACTERS);
      if (row !== this.row) {
        this.row = row;
        this.options.onChange(row);
      }
    }
    this.schedule();
  }
}
