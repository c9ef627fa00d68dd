import type { ToolSpec } from '../tool-spec.ts';

/** Changes nothing but the model's own checklist: plan mode offers it, and nobody is asked. */
export const todoWriteSpec: ToolSpec<'todo_write'> = {
  name: 'todo_write',
  otherNames: ['TodoWrite'],
  kind: 'think',
  guidance:
    'For work of three steps or more, keep a todo list with todo_write: write the steps before you start, mark one in_progress as you begin it and done as soon as it is finished, and keep the list current until every step is done. Skip it for questions and one- or two-step tasks.',
};
