import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { withSecretsScrubbed } from '../../src/tools/with-secrets-scrubbed.ts';

const KEY = 'sk-scrub-me-0123456789abcdef';
const run = (tools: ToolSet, name: string) =>
  (tools[name]!.execute as (input: unknown, options: unknown) => Promise<unknown>)({}, { toolCallId: 'c', messages: [] });

describe('tool results are scrubbed of the keys Sylvan holds', () => {
  const tools = withSecretsScrubbed(
    {
      text: tool({ inputSchema: z.object({}), execute: async () => `DASHSCOPE_API_KEY=${KEY}\nother` }),
      object: tool({ inputSchema: z.object({}), execute: async () => ({ items: [{ header: `Bearer ${KEY}` }], count: 1 }) }),
      failing: tool({ inputSchema: z.object({}), execute: async (): Promise<string> => { throw new Error(`401 for key ${KEY}`); } }),
    },
    () => [KEY],
  );

  test('in text', async () => assert.equal(await run(tools, 'text'), 'DASHSCOPE_API_KEY=[redacted]\nother'));
  test('inside objects and arrays', async () => assert.deepEqual(await run(tools, 'object'), { items: [{ header: 'Bearer [redacted]' }], count: 1 }));
  test('in errors', async () => assert.rejects(run(tools, 'failing'), (error: Error) => error.message === '401 for key [redacted]'));
});

describe('the keys are read at each call, not when the tools are wrapped', () => {
  test('a key added to the list after wrapping is redacted from the next result', async () => {
    const held: string[] = [];
    const LATER = 'sk-learned-later-9f8e7d6c5b4a';
    const tools = withSecretsScrubbed({ echo: tool({ inputSchema: z.object({}), execute: async () => `header ${LATER}` }) }, () => [...held]);
    assert.equal(await run(tools, 'echo'), `header ${LATER}`);
    held.push(LATER);
    assert.equal(await run(tools, 'echo'), 'header [redacted]');
  });
});
