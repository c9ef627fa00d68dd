import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { DEFAULT_STREAM_LIMITS, guardEventStream, openEventStream } from '../../src/providers/stream-guard.ts';
import { toolMarkupMiddleware } from '../../src/providers/tool-markup-middleware.ts';

// Issue 19 §1, streams: a complete over-long line is held to the per-line limit (10 MB), not the
// whole-stream one (100 MB); a <tool_call> tag split across two chunks is still kept out of the answer.

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
    const opening = await openEventStream(body([first, ...inChunks(under)]));
    assert.equal(opening.kind, 'stream');
    let length = 0;
    if (opening.kind === 'stream') for await (const chunk of opening.body) length += chunk.byteLength;
    assert.equal(length, first.length + under.length);
  });
});

describe('a <tool_call> tag split across chunks', () => {
  async function answerOf(deltas: string[]): Promise<{ text: string; reasoning: string }> {
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'text-start', id: 't' },
      ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
      { type: 'text-end', id: 't' },
    ];
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    const middleware = toolMarkupMiddleware();
    const wrapped = await middleware.wrapStream!({ doStream: async () => ({ stream }) } as never);
    let text = '';
    let reasoning = '';
    for await (const part of wrapped.stream as ReadableStream<LanguageModelV4StreamPart>) {
      if (part.type === 'text-delta') text += part.delta;
      if (part.type === 'reasoning-delta') reasoning += part.delta;
    }
    return { text, reasoning };
  }

  for (const split of [1, 4, 10]) {
    test(`split after "${'<tool_call>'.slice(0, split)}": the markup is kept out of the answer`, async () => {
      const markup = '<tool_call>{"name":"read_file","arguments":{"path":"a"}}</tool_call>';
      const { text, reasoning } = await answerOf(['Let me look. ', markup.slice(0, split), markup.slice(split), ' Done.']);
      assert.equal(text, 'Let me look.  Done.');
      assert.equal(reasoning, markup);
    });
  }
});
