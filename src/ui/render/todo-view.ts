import type { ChalkInstance } from 'chalk';
import { todoProgress, type TodoItem } from '../../tools/todo/todo-list.ts';
import { cutToWidth } from '../../shared/text/display-width.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

/** The live checklist takes at most this many rows: the answer and the status line need the rest. */
export const LIVE_CHECKLIST_ROWS = 8;

const MARKS = { pending: '☐', in_progress: '◐', done: '☑' } as const;

/**
 * The checklist as terminal rows, one item a row cut to `width` (the text came from the model:
 * sanitised). With `maxRows`, a long list shows the done items before the first open one as one
 * row (`☑ 4 done`), then as many open ones as fit, then `… N more`.
 */
export function checklistRows(items: readonly TodoItem[], colour: ChalkInstance, width: number, maxRows = Number.POSITIVE_INFINITY): string[] {
  const row = (item: TodoItem) => {
    const text = cutToWidth(sanitizeLine(item.text), Math.max(10, width - 4));
    if (item.status === 'done') return `  ${colour.green(MARKS.done)} ${colour.dim(text)}`;
    if (item.status === 'in_progress') return `  ${colour.yellow(MARKS.in_progress)} ${colour.bold(text)}`;
    return `  ${MARKS.pending} ${text}`;
  };
  if (items.length <= maxRows) return items.map(row);
  const open = items.findIndex((item) => item.status !== 'done');
  const firstOpen = open === -1 ? items.length : open;
  const rows: string[] = [];
  if (firstOpen > 0) rows.push(`  ${colour.green(MARKS.done)} ${colour.dim(`${firstOpen} done`)}`);
  const room = maxRows - rows.length - 1;
  const shown = items.slice(firstOpen, firstOpen + room);
  rows.push(...shown.map(row));
  const more = items.length - firstOpen - shown.length;
  if (more > 0) rows.push(colour.dim(`  … ${more} more`));
  return rows;
}

/** The list in one line, for the end of a turn: `☑ 2/5 done · /todo`. */
export function collapsedChecklist(items: readonly TodoItem[]): string {
  const { done, total } = todoProgress(items);
  return `${done === total ? MARKS.done : MARKS.pending} ${done}/${total} done · /todo`;
}

/** What `/todo` prints: the whole list and its count, or that there is none. */
export function todoReport(items: readonly TodoItem[], colour: ChalkInstance, width: number): string[] {
  if (items.length === 0) return ['  No todo list: the model keeps one (todo_write) for work of three steps or more.'];
  const { done, total } = todoProgress(items);
  return [`  Todo: ${done} of ${total} done`, ...checklistRows(items, colour, width)];
}
