import type { BoundedOutput } from './bounded-output.ts';

/**
 * The text `run_command` returns, one format read by two: the model, and the terminal's view of a
 * finished command. The first line says how it ended; `stdout:` and `stderr:` sections follow.
 */
export function formatCommandResult(status: string, stdout: BoundedOutput, stderr: BoundedOutput): string {
  const parts = [status];
  parts.push(stdout.byteCount === 0 ? 'stdout: (empty)' : `stdout:\n${stdout.text().replace(/\n$/, '')}`);
  if (stderr.byteCount > 0) parts.push(`stderr:\n${stderr.text().replace(/\n$/, '')}`);
  return parts.join('\n');
}

/** A command's result as the terminal shows it: how it ended, in a few words, and the lines it printed. */
export interface CommandResultView {
  /** `exit code 0`, `timed out after 120 s`, `killed by SIGKILL`. */
  ending: string;
  /** It exited with 0. */
  succeeded: boolean;
  /** Its output, stdout then stderr, without the section headings (unsanitised). */
  lines: string[];
}

const SECTION_HEADINGS = new Set(['stdout:', 'stdout: (empty)', 'stderr:']);

/** Reads a `run_command` result back; undefined for any other text. Never throws. */
export function readCommandResult(text: string): CommandResultView | undefined {
  const [status = '', ...rest] = text.split('\n');
  const ending = /^(exit code (-?\d+)|timed out after \d+ s|killed by \S+)/.exec(status);
  if (!ending || !SECTION_HEADINGS.has(rest[0] ?? '')) return undefined;
  // A program printing a bare "stderr:" line loses it from this view only; the model reads the text whole.
  const lines = rest.filter((line) => !SECTION_HEADINGS.has(line));
  return { ending: ending[1]!, succeeded: ending[2] === '0', lines };
}
