import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { textParts, throughFilters } from '../helpers/part-filter-stream.ts';
import { toolMarkupFilter } from '../../src/providers/tool-markup-filter.ts';

// Tool-call markup in the answer text is kept out of the answer even when its <tool_call> tag is
// split across two chunks.

describe('a <tool_call> tag split across chunks', () => {
  async function answerOf(deltas: string[]): Promise<{ text: string; reasoning: string }> {
    let text = '';
    let reasoning = '';
    for (const part of await throughFilters(textParts(deltas), [toolMarkupFilter])) {
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
