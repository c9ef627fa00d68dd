import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type AgentEvent } from '../../src/agent/loop/events.ts';
import { emptyUsage } from '../../src/shared/token-usage.ts';
import type { TodoItem } from '../../src/tools/todo/todo-list.ts';
import { TerminalRenderer } from '../../src/ui/render/terminal-renderer.ts';
import { screenAfter } from '../helpers/screen-model.ts';

class FakeTerminal {
  readonly isTTY = true;
  readonly columns = 80;
  readonly rows = 24;
  bytes = '';
  write(text: string): boolean {
    this.bytes += text;
    return true;
  }
  get screen(): string[] {
    return screenAfter(this.bytes);
  }
}

const todo = (...items: TodoItem[]): AgentEvent => ({ type: 'todo', items });
const turnEnd: AgentEvent = { type: 'turn-end', stopReason: 'completed', usage: emptyUsage(), steps: 2 };

describe('TerminalRenderer: the todo list', { timeout: 10_000 }, () => {
  it('is drawn live above the status line while the turn runs, follows each rewrite, and ends as one line', async () => {
    const terminal = new FakeTerminal();
    // A frame for each chunk (frameMs 0): these tests look at the screen after each one.
    const renderer = new TerminalRenderer(terminal, { now: () => 1_000, environment: { NO_COLOR: '1', TERM: 'xterm' }, frameMs: 0 });
    renderer.begin();
    await renderer.render({ type: 'tool-call', toolCallId: 'c1', toolName: 'todo_write', input: { items: [] } });
    await renderer.render({ type: 'tool-result', toolCallId: 'c1', toolName: 'todo_write', output: 'Todo list saved: 0 of 2 done.' });
    await renderer.render(todo({ text: 'Read the code', status: 'in_progress' }, { text: 'Fix the bug', status: 'pending' }));
    assert.deepEqual(terminal.screen.slice(-3), ['  ◐ Read the code', '  ☐ Fix the bug', '⠋ Waiting for the model… (0s · esc to cancel)']);

    // An approval question hides the live rows; they come back with the answer.
    renderer.suspend();
    assert.doesNotMatch(terminal.screen.join('\n'), /Read the code/);
    renderer.resume();
    assert.match(terminal.screen.join('\n'), /◐ Read the code/);

    await renderer.render(todo({ text: 'Read the code', status: 'done' }, { text: 'Fix the bug', status: 'in_progress' }));
    await renderer.render({ type: 'text-delta', text: 'Fixed it' });
    assert.deepEqual(terminal.screen.slice(-3), ['Fixed it', '  ☑ Read the code', '  ◐ Fix the bug'], 'while text streams, the checklist sits under it');

    await renderer.render(turnEnd);
    const screen = terminal.screen.join('\n');
    assert.doesNotMatch(screen, /◐|Read the code/, 'the live checklist is gone at the end of the turn');
    assert.match(screen, /Fixed it\n\n☐ 1\/2 done · \/todo\n$/);
  });

  it('a turn that wrote no todo list ends without the line', async () => {
    const terminal = new FakeTerminal();
    const renderer = new TerminalRenderer(terminal, { now: () => 1_000, environment: { NO_COLOR: '1', TERM: 'xterm' } });
    await renderer.render({ type: 'text-delta', text: 'Hello.' });
    await renderer.render(turnEnd);
    assert.doesNotMatch(terminal.screen.join('\n'), /\/todo/);
  });
});
