import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_TODO_ITEMS, MAX_TODO_TEXT, TodoList, isTodoItem, type TodoItem } from '../../../src/tools/todo/todo-list.ts';
import { createTodoWriteTool } from '../../../src/tools/todo/todo-write.ts';
import { createTools } from '../../../src/tools/registry/create-tools.ts';
import { planModeToolNames } from '../../../src/agent/instructions/plan-mode.ts';
import { builtInSpec } from '../../../src/tools/registry/built-in-specs.ts';
import { printApproval } from '../../helpers/approval-policies.ts';
import { buildInstructions } from '../../../src/agent/instructions/instructions.ts';

const executionOptions = { toolCallId: 'call-1', messages: [], context: {} };

function todoTool() {
  const list = new TodoList();
  const changes: (readonly TodoItem[])[] = [];
  list.onChange((items) => changes.push(items));
  const tool = createTodoWriteTool(list);
  const write = async (items: TodoItem[]) => String(await tool.execute!({ items }, executionOptions));
  return { list, changes, write, tool };
}

describe('todo_write', () => {
  test('replaces the whole list, tells the listeners, and reads the list back to the model', async () => {
    const { list, changes, write } = todoTool();
    const first = await write([
      { text: 'Read the parser', status: 'done' },
      { text: '  Add   the tests ', status: 'in_progress' },
      { text: 'Update the README', status: 'pending' },
    ]);
    assert.equal(first, 'Todo list saved: 1 of 3 done.\n[x] Read the parser\n[~] Add the tests\n[ ] Update the README');
    assert.deepEqual(list.items, [
      { text: 'Read the parser', status: 'done' },
      { text: 'Add the tests', status: 'in_progress' },
      { text: 'Update the README', status: 'pending' },
    ]);
    await write([{ text: 'Only this', status: 'pending' }]);
    assert.deepEqual(list.items, [{ text: 'Only this', status: 'pending' }], 'the second call replaced the list, not added to it');
    assert.equal(changes.length, 2);
    assert.equal(await write([]), 'Todo list cleared.');
    assert.deepEqual(list.items, []);
  });

  test('refuses too many items, empty text and over-long text with errors that say what to do; the list stays as it was', async () => {
    const { list, write } = todoTool();
    await write([{ text: 'kept', status: 'pending' }]);
    const many = Array.from({ length: MAX_TODO_ITEMS + 1 }, (_, index) => ({ text: `step ${index}`, status: 'pending' as const }));
    await assert.rejects(write(many), /21 items, over the limit of 20; group small steps/);
    await assert.rejects(write([{ text: 'fine', status: 'done' }, { text: '   ', status: 'pending' }]), /Item 2 has no text/);
    await assert.rejects(write([{ text: 'x'.repeat(MAX_TODO_TEXT + 1), status: 'pending' }]), /201 characters long, over the limit of 200; shorten it/);
    assert.deepEqual(list.items, [{ text: 'kept', status: 'pending' }]);
  });

  test('a key Sylvan holds never reaches the list (screen, /todo, session)', async () => {
    const list = new TodoList();
    const tools = createTools({ workspaceRoot: process.cwd(), weather: 'sample', secretPatterns: [], toolTimeoutMs: 1000, todo: list, secrets: () => ['sk-live-0123456789abcdef'] });
    const output = String(await tools.todo_write.execute!({ items: [{ text: 'rotate sk-live-0123456789abcdef', status: 'pending' }] }, executionOptions));
    assert.deepEqual(list.items, [{ text: 'rotate [redacted]', status: 'pending' }]);
    assert.doesNotMatch(output, /sk-live/);
  });

  test('the schema takes the three statuses only', () => {
    const { tool } = todoTool();
    const schema = tool.inputSchema as unknown as { safeParse(value: unknown): { success: boolean } };
    assert.equal(schema.safeParse({ items: [{ text: 'a', status: 'in_progress' }] }).success, true);
    assert.equal(schema.safeParse({ items: [{ text: 'a', status: 'completed' }] }).success, false);
    assert.equal(schema.safeParse({ items: [{ text: 'a' }] }).success, false);
  });

  test('reset sets the list without telling anyone (a new or resumed session)', () => {
    const list = new TodoList([{ text: 'from the session', status: 'in_progress' }]);
    let told = 0;
    list.onChange(() => told++);
    assert.equal(list.items[0]?.text, 'from the session');
    list.reset();
    assert.deepEqual(list.items, []);
    assert.equal(told, 0);
  });

  test('a saved item is checked before it is drawn', () => {
    assert.equal(isTodoItem({ text: 'a', status: 'done' }), true);
    assert.equal(isTodoItem({ text: 'a', status: 'finished' }), false);
    assert.equal(isTodoItem({ text: 3, status: 'done' }), false);
    assert.equal(isTodoItem(null), false);
  });

  test('is registered, needs no approval, is offered in plan mode, and the system prompt says when to use it', () => {
    const list = new TodoList();
    const tools = createTools({ workspaceRoot: process.cwd(), weather: 'sample', secretPatterns: [], toolTimeoutMs: 1000, todo: list });
    assert.ok('todo_write' in tools);
    assert.equal(printApproval(false).decide('todo_write', { items: [] }), 'not-needed');
    assert.ok(planModeToolNames(tools, builtInSpec).includes('todo_write'));
    const plan = printApproval(false, { modes: { mode: () => 'plan', workspaceRoot: process.cwd() } });
    assert.equal(plan.decide('todo_write', { items: [] }), 'not-needed', 'plan mode does not refuse it');
    const prompt = buildInstructions({ workspaceRoot: '/w', tools: Object.keys(tools).map((name) => builtInSpec(name) ?? { name }) });
    assert.match(prompt, /For work of three steps or more, keep a todo list with todo_write/);
    assert.doesNotMatch(buildInstructions({ workspaceRoot: '/w', tools: [{ name: 'read_file' }] }), /todo_write/);
  });
});
