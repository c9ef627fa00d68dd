/** The states of a todo item, in the order work moves through them. */
export const TODO_STATUSES = ['pending', 'in_progress', 'done'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface TodoItem {
  readonly text: string;
  readonly status: TodoStatus;
}

/** A plan longer than this is not a checklist any more; the model is told to group steps. */
export const MAX_TODO_ITEMS = 20;
/** One step, one line: longer text is refused so the checklist stays readable. */
export const MAX_TODO_TEXT = 200;

/**
 * The session's todo list, kept by the model through `todo_write`: replaced whole by each call,
 * drawn by the UI, saved with the session and restored by `--resume`. Changes no file.
 */
export class TodoList {
  #items: readonly TodoItem[];
  readonly #listeners = new Set<(items: readonly TodoItem[]) => void>();

  constructor(items: readonly TodoItem[] = []) {
    this.#items = freeze(items);
  }

  get items(): readonly TodoItem[] {
    return this.#items;
  }

  /** Replaces the list (a `todo_write`) and tells the listeners. */
  replace(items: readonly TodoItem[]): void {
    this.#items = freeze(items);
    for (const listener of this.#listeners) listener(this.#items);
  }

  /** Sets the list without telling anyone: a new session starts empty, a resumed one where it was. */
  reset(items: readonly TodoItem[] = []): void {
    this.#items = freeze(items);
  }

  /** Called after each `replace`; returns the unsubscribe. */
  onChange(listener: (items: readonly TodoItem[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** How many items are done, of how many. */
export function todoProgress(items: readonly TodoItem[]): { done: number; total: number } {
  return { done: items.filter((item) => item.status === 'done').length, total: items.length };
}

/** Whether a value read back from a session file is a todo item this version can draw. */
export function isTodoItem(value: unknown): value is TodoItem {
  if (typeof value !== 'object' || value === null) return false;
  const { text, status } = value as Record<string, unknown>;
  return typeof text === 'string' && text.length <= MAX_TODO_TEXT * 4 && (TODO_STATUSES as readonly unknown[]).includes(status);
}

function freeze(items: readonly TodoItem[]): readonly TodoItem[] {
  return Object.freeze(items.slice(0, MAX_TODO_ITEMS).map((item) => Object.freeze({ text: item.text, status: item.status })));
}
