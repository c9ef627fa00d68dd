import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Reply } from './dashscope-server.ts';

const fixtures = fileURLToPath(new URL('../fixtures/dashscope/', import.meta.url));

/** The chunks of a `*.chunks.txt` fixture (one JSON chunk a line), as objects. */
export function fixtureChunks(name: string): object[] {
  return readFileSync(`${fixtures}${name}`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as object);
}

/** A fixture stream replayed as DashScope sends it: one `data:` event per chunk, then `[DONE]`. */
export const replayFixture = (name: string): Reply => ({ kind: 'raw', chunks: [...fixtureChunks(name), '[DONE]'] });

interface ErrorFixture {
  status: number;
  body: Record<string, unknown>;
}

const errors = JSON.parse(readFileSync(`${fixtures}errors.json`, 'utf8')) as Record<string, ErrorFixture>;

/** One of the DashScope error bodies in errors.json. */
export function errorFixture(name: string): ErrorFixture {
  const fixture = errors[name];
  if (!fixture) throw new Error(`no error fixture "${name}" in test/fixtures/dashscope/errors.json`);
  return fixture;
}

/** The error as an HTTP answer with its status and body; `retry-after: 0` so a retry costs no time. */
export const errorReply = (name: string): Reply => {
  const { status, body } = errorFixture(name);
  return { kind: 'http-error', status, body, headers: { 'retry-after': '0' } };
};

/** A chunk with answer text, in DashScope's envelope. */
export const textChunk = (content: string, finishReason: string | null = null): object => ({
  choices: [{ delta: { content }, finish_reason: finishReason, index: 0, logprobs: null }],
  object: 'chat.completion.chunk',
  usage: null,
  created: 1770764942,
  system_fingerprint: null,
  model: 'qwen-plus',
  id: 'chatcmpl-0f1e2d3c-4b5a-9687-a8b9-cadbecfd0e1f',
});

/** The error as a frame inside a 200 stream, after `textBefore` when given (no [DONE]: DashScope ends there). */
export const errorFrameReply = (name: string, textBefore?: string): Reply => ({
  kind: 'raw',
  chunks: [...(textBefore ? [textChunk(textBefore)] : []), errorFixture(name).body],
  headers: { 'retry-after': '0' },
});
