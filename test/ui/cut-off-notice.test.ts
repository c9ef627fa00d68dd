import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AgentEvent } from '../../src/agent/loop/events.ts';
import { emptyUsage } from '../../src/shared/token-usage.ts';
import { EventRenderer } from '../../src/ui/render/render.ts';
import { TerminalRenderer } from '../../src/ui/render/terminal-renderer.ts';
import { screenAfter } from '../helpers/screen-model.ts';

// Issue 23, section 2: an answer cut off at the model's output limit says so, once, dimmed, after it.

const NOTICE = 'The answer was cut off at the model\'s output limit. Say "continue" for the rest.';

const step = (finishReason: string, ...inner: AgentEvent[]): AgentEvent[] => [
  { type: 'step-start', step: 1 },
  ...inner,
  { type: 'step-end', step: 1, usage: emptyUsage(), finishReason },
  { type: 'turn-end', stopReason: 'completed', usage: emptyUsage(), steps: 1, finishReason },
];
const words = (text: string): AgentEvent => ({ type: 'text-delta', text });

class Buffer {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

/** Print mode's renderer: the answer on one stream, activity (and the notice) on the other. */
function printed(events: AgentEvent[]): { stdout: string; stderr: string } {
  const stdout = new Buffer();
  const stderr = new Buffer();
  const renderer = new EventRenderer(stdout, stderr);
  for (const event of events) renderer.render(event);
  return { stdout: stdout.text, stderr: stderr.text };
}

class FakeTerminal extends Buffer {
  readonly isTTY = true;
  readonly columns = 100;
  readonly rows = 24;
}

async function onTerminal(events: AgentEvent[]): Promise<string> {
  const terminal = new FakeTerminal();
  const renderer = new TerminalRenderer(terminal, { environment: { NO_COLOR: '1', TERM: 'xterm' } });
  for (const event of events) await renderer.render(event);
  return screenAfter(terminal.text).join('\n');
}

describe('a cut-off answer says so', { timeout: 10_000 }, () => {
  test('print mode: the answer whole on stdout, the notice on stderr after it', () => {
    const { stdout, stderr } = printed(step('length', words('The first half of'), words(' the answer')));
    assert.equal(stdout, 'The first half of the answer\n');
    assert.equal(stderr, `${NOTICE}\n`);
  });

  test('the terminal: one line after the answer', async () => {
    const screen = await onTerminal(step('length', words('The first half of the answer')));
    assert.deepEqual(screen.split('\n').filter((line) => line !== ''), ['The first half of the answer', NOTICE]);
  });

  test('never for a complete answer, a step of tool calls only, or a step whose calls were cut off', async () => {
    assert.equal(printed(step('stop', words('Done.'))).stderr, '');
    assert.equal(printed(step('length')).stderr, '');
    const call: AgentEvent = { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a' } };
    assert.doesNotMatch(printed(step('length', words('Reading it.'), call)).stderr, /cut off/);
    assert.doesNotMatch(await onTerminal(step('stop', words('Done.'))), /cut off/);
  });
});
