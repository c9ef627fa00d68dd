import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Chalk } from 'chalk';
import type { TodoItem } from '../../src/tools/todo/todo-list.ts';
import { checklistRows, collapsedChecklist, todoReport } from '../../src/ui/render/todo-view.ts';

const plain = new Chalk({ level: 0 });
const items: TodoItem[] = [
  { text: 'Read the code', status: 'done' },
  { text: 'Write the parser', status: 'in_progress' },
  { text: 'Add tests', status: 'pending' },
];

describe('the todo checklist', () => {
  test('one row an item, marked by its status', () => {
    assert.deepEqual(checklistRows(items, plain, 80), ['  ☑ Read the code', '  ◐ Write the parser', '  ☐ Add tests']);
  });

  test("the model's text cannot drive the terminal, and a long item is cut to the width", () => {
    const rows = checklistRows([{ text: 'evil\u001b]52;c;aGk=\u0007 \u001b[2Jtext', status: 'pending' }, { text: 'y'.repeat(300), status: 'done' }], plain, 40);
    assert.doesNotMatch(rows.join('\n'), /\u001b/);
    assert.match(rows[0]!, /␛\]52;c;aGk=␇/);
    assert.ok(rows[1]!.length <= 40, rows[1]);
  });

  test('a long list keeps to its rows: the done ones before the first open item as one row, then what fits, then how many more', () => {
    const long: TodoItem[] = Array.from({ length: 15 }, (_, index) => ({ text: `step ${index + 1}`, status: index < 5 ? 'done' : index === 5 ? 'in_progress' : 'pending' }));
    const rows = checklistRows(long, plain, 80, 8);
    assert.equal(rows.length, 8);
    assert.equal(rows[0], '  ☑ 5 done');
    assert.equal(rows[1], '  ◐ step 6');
    assert.equal(rows.at(-1), '  … 4 more');
    const allDone = checklistRows(long.map((item) => ({ ...item, status: 'done' as const })), plain, 80, 8);
    assert.deepEqual(allDone, ['  ☑ 15 done']);
  });

  test('collapsed to one line when the turn ends; /todo shows it whole, or says there is none', () => {
    assert.equal(collapsedChecklist(items), '☐ 1/3 done · /todo');
    assert.equal(collapsedChecklist(items.map((item) => ({ ...item, status: 'done' as const }))), '☑ 3/3 done · /todo');
    assert.deepEqual(todoReport(items, plain, 80), ['  Todo: 1 of 3 done', '  ☑ Read the code', '  ◐ Write the parser', '  ☐ Add tests']);
    assert.match(todoReport([], plain, 80)[0]!, /No todo list/);
  });
});
