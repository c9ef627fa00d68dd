import { runCommandSpec } from '../../tools/shell/run-command-spec.ts';
import { cutToWidth, wrapStyled } from '../../shared/text/display-width.ts';
import type { ReplState } from '../state/repl-state.ts';
import { shownHome } from '../render/loaded-files-line.ts';
import { sandboxHint } from '../render/sandbox-hint.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { forScreen, progressLines } from '../render/screen-text.ts';
import { formatDuration, type ToolCallRecord } from '../render/tool-calls.ts';
import { digits } from '../../shared/text/count-text.ts';

/** Rows of a command's output shown under it; /last shows the rest. */
const SHOWN_ROWS = 20;

const BARE_BANG_HINT =
  'Type a command after !, e.g. !git status: it runs in the workspace without a question (typing it is the approval), and what it prints joins the conversation.';

/**
 * `!command` at the prompt: runs the command at once (the user typed it: no question) through
 * run_command's machinery in the runtime, shows its live output while it runs (Esc or Ctrl-C stops
 * it), then its output the way a tool call's is shown — `✓ $ command · exit code 0 (0.1 s)` and the
 * lines under `⎿` — and /last shows it whole. The runtime adds it to the history as the user's own
 * message, so the next turn's request carries it. Input from a pipe runs nothing: nobody typed it.
 */
export async function runUserCommand(line: string, state: ReplState, options: { piped: boolean }): Promise<void> {
  const command = line.replace(/^!/, '').trim();
  if (command === '') return printDim(state, BARE_BANG_HINT, 2);
  if (options.piped) return printDim(state, '!command runs only when typed at a terminal: this input is a pipe, so nothing was run.', 2);
  const note = await state.runtime.checkpoints?.commands.noteBefore({ once: true });
  if (note !== undefined) printDim(state, `(${note})`, 0);
  const startedAt = Date.now();
  const status = state.status(`$ ${sanitizeLine(command)}`);
  const result = await state
    .interruptible((signal) => state.runtime.runUserCommand(command, signal, (text) => status.progress(progressLines(text))))
    .finally(status);
  const record: ToolCallRecord = {
    toolCallId: `user-command-${startedAt}`,
    toolName: runCommandSpec.name,
    input: { command },
    startedAt,
    endedAt: Date.now(),
    outcome: result.ok ? { kind: 'result', output: result.output } : { kind: 'error', error: result.error },
  };
  state.lastToolCalls = [record];
  for (const row of commandRows(command, result.ok ? result.output : undefined, result.ok ? undefined : result.error, record, state)) state.print(row);
  const failed = !result.ok || !/^exit code 0\b/.test(result.output);
  const hint = failed ? sandboxHint(result.ok ? result.output : result.error, state.runtime.sandbox?.state, `${shownHome(state.config.home)}/settings.json`) : undefined;
  if (hint !== undefined) printDim(state, hint, 2);
  for (const notice of result.notices) printDim(state, sanitizeLine(notice), 0);
}

/** A dimmed note, wrapped between words at the terminal's width, `indent` columns in. */
function printDim(state: ReplState, text: string, indent: number): void {
  const width = state.columns();
  const rows = width === undefined ? [text] : wrapStyled(text, Math.max(20, width - 1 - indent));
  for (const row of rows) state.print(state.dim(`${' '.repeat(indent)}${row}`));
}

/** The lines shown for a finished command: a ✓ or ✗ line with its status, then its output, cut to the width. */
function commandRows(command: string, output: string | undefined, error: string | undefined, record: ToolCallRecord, state: ReplState): string[] {
  const { colour } = state;
  const width = state.columns();
  const fit = (text: string, indent: number) => (width === undefined ? text : cutToWidth(text, Math.max(10, width - 1 - indent)));
  const took = formatDuration((record.endedAt ?? record.startedAt) - record.startedAt);
  if (output === undefined) {
    return [`${colour.red('✗')} $ ${fit(sanitizeLine(command), 4)}${colour.dim(` · ${took}`)}`, colour.dim(`  ⎿ ${fit(sanitizeLine(error ?? ''), 4)}`)];
  }
  const [status = '', ...body] = output.split('\n');
  const succeeded = /^exit code 0\b/.test(status);
  const mark = succeeded ? colour.green('✓') : colour.red('✗');
  const lines = shownOutput(body);
  const head = `${mark} $ ${fit(sanitizeLine(command), 4 + status.length)}${colour.dim(` · ${sanitizeLine(status)}`)}`;
  if (lines.length === 0) return [head];
  const shown = lines.slice(0, SHOWN_ROWS).map((text, index) => `${index === 0 ? '  ⎿ ' : '    '}${fit(forScreen(text), 4)}`);
  const more = lines.length - SHOWN_ROWS;
  if (more > 0) shown.push(colour.dim(`    … ${digits(more)} more line${more === 1 ? '' : 's'} (/last shows them all)`));
  return [head, ...shown];
}

/**
 * run_command's output after its status line, as the user reads it: `stdout:` and `stderr:` name
 * the streams only when there are both; `stdout: (empty)` alone is nothing.
 */
function shownOutput(body: string[]): string[] {
  if (body.length === 1 && body[0] === 'stdout: (empty)') return [];
  const hasStderr = body.some((text, index) => index > 0 && text === 'stderr:');
  if (!hasStderr && body[0] === 'stdout:') return body.slice(1);
  if (body[0] === 'stdout: (empty)' && body[1] === 'stderr:') return body.slice(2);
  return body;
}
