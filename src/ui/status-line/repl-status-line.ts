import type { Config } from '../../config/config.ts';
import { gitBranch } from './branch-label.ts';
import type { LineReader } from '../input/line-reader-contract.ts';
import { StatusLine } from './status-line.ts';
import { statusLineInput, type StatusSession } from './status-line-input.ts';

/** The REPL's side of the user's status line: the row under the prompt, and when to ask for a new one. */
export interface ReplStatusLine {
  /** The row to show under the prompt: the command's last line, else `fallback` (the mode row). */
  footer(fallback: string): string;
  /** Asks for a new row, the session as it is now (the runtime once it has loaded). */
  refresh(mode: string, session: StatusSession | undefined): void;
  close(): void;
}

/**
 * The status line of settings `statusLine`, on a terminal whose reader can redraw the row under the
 * prompt; undefined otherwise (no setting, a pipe). Its row replaces the mode row when it arrives.
 */
export function replStatusLine(config: Config, reader: LineReader, terminal: boolean, now: () => number): ReplStatusLine | undefined {
  const setting = config.statusLine;
  if (!setting || !terminal || !reader.setFooter) return undefined;
  const startedAt = now();
  const line = new StatusLine({ command: setting.command, cwd: config.cwd, timeoutMs: setting.timeoutMs, onChange: (row) => reader.setFooter?.(row) });
  return {
    footer: (fallback) => line.row ?? fallback,
    refresh: (mode, session) =>
      line.refresh(() => statusLineInput(config, { mode, gitBranch: gitBranch(config.cwd), session, startedAt, now: now() })),
    close: () => line.close(),
  };
}
