import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EventRenderer, type Output } from '../../src/ui/render/render.ts';

/** What was written, without colour (cursor movement stays). */
class Screen implements Output {
  private written = '';
  get text(): string {
    return this.written.replace(/\x1b\[\d+m/g, '');
  }
  constructor(readonly isTTY: boolean) {}
  write(chunk: string): boolean {
    this.written += chunk;
    return true;
  }
}

const progress = (text: string) => ({ type: 'tool-progress' as const, toolCallId: 'c1', toolName: 'run_command', text });

describe('live output of a running command', () => {
  test('on a terminal: the latest lines under the call, sanitised, redrawn in place and erased when the result comes', () => {
    const screen = new Screen(true);
    const renderer = new EventRenderer(screen, screen);
    renderer.render({ type: 'tool-call', toolCallId: 'c1', toolName: 'run_command', input: { command: 'make' } });
    renderer.render(progress('one\ntwo\x1b]0;pwned\x07\nthree\nfour'));
    assert.ok(screen.text.includes('  │ two␛]0;pwned␇\n  │ three\n  │ four\n'), JSON.stringify(screen.text));
    assert.ok(!screen.text.includes('  │ one'), 'more than the last three lines were drawn');
    const before = screen.text.length;
    renderer.render(progress('five'));
    assert.equal(screen.text.slice(before), '\x1b[3A\r\x1b[J  │ five\n');
    const beforeResult = screen.text.length;
    renderer.render({ type: 'tool-result', toolCallId: 'c1', toolName: 'run_command', output: 'exit code 0' });
    assert.ok(screen.text.slice(beforeResult).startsWith('\x1b[1A\r\x1b[J  ⎿ exit code 0'), JSON.stringify(screen.text.slice(beforeResult)));
  });

  test('not on a terminal (a pipe, print mode\'s stderr): nothing is drawn', () => {
    const screen = new Screen(false);
    const renderer = new EventRenderer(screen, screen);
    renderer.render(progress('one\ntwo'));
    assert.equal(screen.text, '');
  });
});
