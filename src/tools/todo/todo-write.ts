import { tool } from 'ai';
import { z } from 'zod';
import { MAX_TODO_ITEMS, MAX_TODO_TEXT, TODO_STATUSES, todoProgress, type TodoItem, type TodoList } from './todo-list.ts';

const DESCRIPTION = `Keep a todo list for the current task, shown to the user as a live checklist.
Use it for work of three steps or more: write the steps before you start, mark the one you are working on "in_progress" (one at a time), and mark each "done" as soon as it is finished, in the same turn. Skip it for a question or a one- or two-step task.
Each call sends the whole list and replaces the previous one: include every item, done ones too. At most ${MAX_TODO_ITEMS} items of at most ${MAX_TODO_TEXT} characters; an empty list clears it. It changes no file.`;

const MARKS: Record<TodoItem['status'], string> = { pending: '[ ]', in_progress: '[~]', done: '[x]' };

/**
 * The `todo_write` tool: { items: [{ text, status }] } replaces the session's todo list and returns
 * it as the model should remember it. Throws model-readable Errors for too many items, empty or
 * over-long text. Needs no approval: it changes nothing outside Sylvan. `scrub` takes the keys
 * Sylvan holds out of the text first, so the list on screen, in /todo and in the session has none.
 */
export function createTodoWriteTool(list: TodoList, scrub: (text: string) => string = (text) => text) {
  return tool({
    description: DESCRIPTION,
    inputSchema: z.object({
      items: z
        .array(
          z.object({
            text: z.string().describe(`What the step does, in a few words (at most ${MAX_TODO_TEXT} characters).`),
            status: z.enum(TODO_STATUSES).describe('"pending" not started, "in_progress" being worked on now, "done" finished.'),
          }),
        )
        .describe(`The whole list, in order (at most ${MAX_TODO_ITEMS} items).`),
    }),
    execute: async ({ items }) => {
      const checked = checkItems(items).map((item) => ({ ...item, text: scrub(item.text) }));
      list.replace(checked);
      return describeTodo(checked);
    },
  });
}

function checkItems(items: readonly TodoItem[]): TodoItem[] {
  if (items.length > MAX_TODO_ITEMS) {
    throw new Error(`The list has ${items.length} items, over the limit of ${MAX_TODO_ITEMS}; group small steps into larger ones and send the whole list again.`);
  }
  return items.map((item, index) => {
    const text = item.text.replace(/\s+/g, ' ').trim();
    if (text === '') throw new Error(`Item ${index + 1} has no text; say what the step does, or leave the item out.`);
    if (text.length > MAX_TODO_TEXT) {
      throw new Error(`Item ${index + 1} is ${text.length} characters long, over the limit of ${MAX_TODO_TEXT}; shorten it to a few words and send the whole list again.`);
    }
    return { text, status: item.status };
  });
}

/** What the model reads back: the count and the list, one item a line. */
function describeTodo(items: readonly TodoItem[]): string {
  if (items.length === 0) return 'Todo list cleared.';
  const { done, total } = todoProgress(items);
  return [`Todo list saved: ${done} of ${total} done.`, ...items.map((item) => `${MARKS[item.status]} ${item.text}`)].join('\n');
}
