import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_STREAM_LIMITS, guardEventStream, openEventStream } from '../../src/providers/stream-guard.ts';

// A complete over-long line of a provider's event stream is held to the per-line limit (10 MB),
// not the whole-stream one (100 MB).

const encoder = new TextEncoder();
const body = (parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });

/** Reads a stream to its end; the fault it failed with, if any. */
async function faultOf(stream: ReadableStream<Uint8Array>): Promise<string | undefined> {
  try {
    for await (const _ of stream);
    return undefined;
  } catch (error) {
    return (error as { problem?: { fault?: string } }).problem?.fault ?? String(error);
  }
}

const MB = 1024 * 1024;

describe('a complete line longer than 10 MB', { timeout: 20_000 }, () => {
  const first = 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n';
  const long = `data: {"choices":[{"delta":{"content":"${'x'.repeat(10 * MB)}"}}]}\n\n`;
  const inChunks = (text: string, size = 256 * 1024) => Array.from({ length: Math.ceil(text.length / size) }, (_, n) => text.slice(n * size, (n + 1) * size));

  test('the default limits: 10 MB a line, far more for the whole stream', () => {
    assert.equal(DEFAULT_STREAM_LIMITS.lineChars, 10 * MB);
    assert.ok(DEFAULT_STREAM_LIMITS.totalChars >= 100 * MB);
  });

  test('after a first event, ended by its newline in the same chunk: refused as line-too-long', async () => {
    assert.equal(await faultOf(guardEventStream(body([first, long]))), 'line-too-long');
  });

  test('after a first event, arriving in many chunks: refused as line-too-long', async () => {
    assert.equal(await faultOf(guardEventStream(body([first, ...inChunks(long)]))), 'line-too-long');
  });

  test('as the first event of a 200 (openEventStream): refused as line-too-long', async () => {
    const opening = await openEventStream(body(inChunks(long)));
    const fault = opening.kind === 'problem' ? opening.problem.fault : await faultOf(opening.body);
    assert.equal(fault, 'line-too-long');
  });

  test('a line just under the limit passes whole', async () => {
    const under = `data: ${'y'.repeat(10 * MB - 10)}\n\n`;
    const done = 'data: [DONE]\n\n';
    const opening = await openEventStream(body([first, ...inChunks(under), done]));
    assert.equal(opening.kind, 'stream');
    let length = 0;
    if (opening.kind === 'stream') for await (const chunk of opening.body) length += chunk.byteLength;
    assert.equal(length, first.length + under.length + done.length);
  });
});
