import type { ChalkInstance } from 'chalk';
import { builtInSpec } from '../../tools/registry/built-in-specs.ts';
import { readCommandResult } from '../../tools/shell/command-result.ts';
import { cutToWidth } from '../../shared/text/display-width.ts';
import { summariseResult } from './render.ts';
import { formatCall } from '../../shared/text/call-text.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { formatDuration, stoppedAfter, type ToolCallRecord } from './tool-calls.ts';
import { digits } from '../../shared/text/count-text.ts';

/** How many lines of a result are shown under its call: a command's last ones, a search's first matches. */
export const PREVIEW_LINES = 4;


/** A finished call as the terminal shows it, before the lines are styled. */
interface View {
  failed: boolean;
  denied?: boolean;
  /** Output lines shown above the summary (a command's last lines). */
  before: string[];
  summary: string;
  /** Lines shown under the summary (a search's first matches). */
  after: string[];
  /** Lines of the result not shown. */
  hidden: number;
}

export interface CollapsedOptions {
  /** Ctrl+O can show the rest: the count of hidden lines says so. */
  expandable?: boolean;
  /** False for a call redrawn from a saved session: it has no duration to show. */
  timed?: boolean;
}

/**
 * A finished call in a few lines: `✓ name(args) · 0.3s`, then what it gave, dimmed — a command's
 * last lines and how it ended (`exit code 1`, `interrupted after 5.0 s`), a search's first matches,
 * else the first line of the result — with the count of lines not shown, and where the whole
 * output was saved when it was. Everything from outside is sanitised.
 */
export function finishedCallLines(record: ToolCallRecord, colour: ChalkInstance, width: number, options: CollapsedOptions = {}): string[] {
  const call = formatCall(record.toolName, record.input);
  const took = options.timed === false ? '' : colour.dim(` · ${formatDuration((record.endedAt ?? record.startedAt) - record.startedAt)}`);
  const inner = width - 6;
  const view = viewOf(record, inner);
  const mark = !view.failed ? colour.green('✓') : view.denied ? colour.yellow('✗') : colour.red('✗');
  const more = view.hidden > 0 ? `+${digits(view.hidden)} ${view.after.length > 0 ? 'more' : `line${view.hidden === 1 ? '' : 's'}`}${options.expandable ? ', ctrl+o to expand' : ''}` : '';
  const lines = [`${mark} ${call}${took}`];
  for (const line of view.before) lines.push(colour.dim(`  │ ${line}`));
  if (view.after.length > 0) {
    lines.push(colour.dim(`  ⎿ ${view.summary}`));
    for (const line of view.after) lines.push(colour.dim(`    ${line}`));
    if (more) lines.push(colour.dim(`    (${more})`));
  } else {
    lines.push(colour.dim(`  ⎿ ${cutToWidth(view.summary, inner - (more ? more.length + 3 : 0))}${more ? ` (${more})` : ''}`));
  }
  if (record.savedAt) lines.push(colour.dim(`    full output: ${sanitizeLine(record.savedAt)}`));
  return lines;
}

function viewOf(record: ToolCallRecord, width: number): View {
  const outcome = record.outcome;
  const plain = (summary: string, failed: boolean): View => ({ failed, before: [], summary, after: [], hidden: 0 });
  if (outcome === undefined) return plain('(no result)', true);
  if (outcome.kind === 'denied') return { ...plain(summariseResult(outcome.reason ? `denied: ${outcome.reason}` : 'denied', width), true), denied: true };
  if (outcome.kind === 'error') {
    // Ended by the user or the clock: what it showed stays, and how it ended, in the user's words.
    if (outcome.stopped) return { ...plain(stoppedAfter(record, outcome.stopped), true), before: (record.progress ?? []).map((line) => cutToWidth(line, width)) };
    return plain(summariseResult(outcome.error, width), true);
  }
  const output = outcome.output;
  if (typeof output !== 'string') return plain(summariseResult(output, width), false);
  const display = builtInSpec(record.toolName)?.display;
  const command = display === 'command' ? readCommandResult(output) : undefined;
  if (command) {
    const lines = command.lines.map((line) => screenLine(line, width)).filter((line) => line.trim() !== '');
    const before = lines.slice(-PREVIEW_LINES);
    return { failed: !command.succeeded, before, summary: command.ending, after: [], hidden: lines.length - before.length };
  }
  // A heading line and then one finding a line (`path:line: text`, a file name).
  if (display === 'listing') {
    const [heading = '', ...rest] = output.split('\n').filter((line) => line.trim() !== '');
    const after = rest.slice(0, PREVIEW_LINES).map((line) => screenLine(line, width));
    return { failed: false, before: [], summary: screenLine(heading, width), after, hidden: rest.length - after.length };
  }
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  return { ...plain(screenLine(lines[0] ?? '', width), false), hidden: Math.max(0, lines.length - 1) };
}

/**
 * One line of output as a terminal would leave it: of a line redrawn with carriage returns (a
 * progress bar) only the last drawing, tabs as spaces, sanitised, cut to `width` columns.
 */
function screenLine(line: string, width: number): string {
  const drawn = line.replace(/\r+$/, '').split('\r').at(-1) ?? '';
  return cutToWidth(sanitizeLine(drawn.replace(/\t/g, '    ')).trimEnd(), width);
}
