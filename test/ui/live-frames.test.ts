import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { type AgentEvent } from '../../src/agent/loop/events.ts';
import { emptyUsage } from '../../src/shared/token-usage.ts';
import { FRAME_MS } from '../../src/ui/render/status.ts';
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
  get screen(): string {
    return screenAfter(this.bytes).join('\n');
  }
}

const turnEnd: AgentEvent = { type: 'turn-end', stopReason: 'completed', usage: emptyUsage(), steps: 1 };

/** A renderer whose clock stands still unless moved: frames are due only when the test says so. */
function setup(frameMs?: number) {
  const terminal = new FakeTerminal();
  let clock = 1_000;
  const renderer = new TerminalRenderer(terminal, { now: () => clock, environment: { NO_COLOR: '1', TERM: 'xterm' }, frameMs });
  const render = async (...events: AgentEvent[]) => {
    for (const event of events) await renderer.render(event);
  };
  return { terminal, renderer, render, advance: (ms: number) => (clock += ms) };
}

/** `text` as a model streams it: pieces of `size` characters. */
const chunks = (text: string, size = 20): AgentEvent[] =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, index) => ({ type: 'text-delta', text: text.slice(index * size, (index + 1) * size) }));

function codeBlock(lines: number): string {
  const body = Array.from({ length: lines }, (_, index) => `  const value${index} = compute(${index}); // line ${index}`);
  return ['Here it is:', '', '```ts', ...body, '```', '', 'Done.'].join('\n');
}

describe('the live rows while an answer streams', { timeout: 30_000 }, () => {
  afterEach(() => mock.timers.reset());

  it('are redrawn once a frame, not once a chunk: the terminal gets about the bytes of the answer', async () => {
    const answer = codeBlock(400);
    const { terminal, render } = setup();
    await render(...chunks(answer), turnEnd);
    // Every chunk drawn (frameMs 0) is what the user would see, at many times the bytes.
    const everyChunk = setup(0);
    await everyChunk.render(...chunks(answer), turnEnd);
    assert.equal(terminal.screen, everyChunk.terminal.screen, 'the same screen in the end');
    assert.ok(terminal.bytes.length <= 3 * answer.length, `${terminal.bytes.length} bytes for an answer of ${answer.length}`);
    assert.ok(everyChunk.terminal.bytes.length > 10 * answer.length, 'a frame for each chunk writes far more');
  });

  it('show the latest text once the frame is due, without another chunk', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { terminal, render, advance } = setup();
    await render({ type: 'text-delta', text: 'First words' });
    assert.equal(terminal.screen, 'First words', 'the first chunk is drawn at once');
    await render({ type: 'text-delta', text: ' and more' });
    assert.equal(terminal.screen, 'First words', 'a chunk right after waits for the next frame');
    advance(FRAME_MS);
    mock.timers.tick(FRAME_MS);
    assert.equal(terminal.screen, 'First words and more');
  });

  it('are flushed at once when the answer ends; a frame waiting to be drawn never keeps the process alive', async () => {
    const { terminal, renderer, render } = setup();
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    await render({ type: 'text-delta', text: 'The answer ' }, { type: 'text-delta', text: 'ends **here**.' });
    assert.equal(terminal.screen, 'The answer', 'the second chunk waits for its frame');
    assert.equal(timers(), before, 'the frame waits on a timer that does not hold the process');
    await render(turnEnd);
    assert.equal(terminal.screen, 'The answer ends here.\n', 'the whole answer, rendered, without waiting for a frame');
    renderer.close();
  });

  it('a 200 KB code block streams in 20-byte chunks in seconds, not minutes, drawn as a whole block would be', async () => {
    /** Milliseconds to stream `answer` with frames drawn by the real clock, and the screen it left. */
    const streamTime = async (answer: string) => {
      const terminal = new FakeTerminal();
      const renderer = new TerminalRenderer(terminal, { now: () => performance.now(), environment: { NO_COLOR: '1', TERM: 'xterm' } });
      const started = performance.now();
      for (const event of [...chunks(answer), turnEnd]) await renderer.render(event);
      return { took: performance.now() - started, screen: terminal.screen };
    };
    await streamTime(codeBlock(200));
    const short = await streamTime(codeBlock(1_100));
    const long = await streamTime(codeBlock(4_400));
    assert.ok(long.screen.length > 190_000);
    const whole = setup();
    await whole.render({ type: 'text-delta', text: codeBlock(4_400) }, turnEnd);
    assert.equal(long.screen, whole.terminal.screen);
    // About two seconds on a busy two-core machine; drawing the whole block at each chunk took 150 (and 50 KB 18).
    assert.ok(long.took < 20_000, `50 KB took ${Math.round(short.took)} ms, 200 KB ${Math.round(long.took)} ms`);
  });
});
