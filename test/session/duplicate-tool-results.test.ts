import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ModelMessage } from 'ai';
import { loadSession } from '../../src/session/store.ts';
import { createSession } from '../../src/session/session-writer.ts';

// A second result for the same tool call is never kept in a saved and resumed session, wherever
// the first one is.

const root = mkdtempSync(join(tmpdir(), 'sylvan-duplicate-results-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('a second result for the same tool call', () => {
  const home = join(root, 'home');
  const call = (id: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: 'a' } }] });
  const result = (id: string, value: string): ModelMessage => ({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'text', value } }],
  });
  const resultsOf = (messages: readonly ModelMessage[], id: string) =>
    messages.flatMap((message) =>
      Array.isArray(message.content) ? message.content.filter((part) => part.type === 'tool-result' && part.toolCallId === id) : [],
    );

  /** Saves `messages` as a session, as Sylvan does, and loads it back as --resume would. */
  function savedAndLoaded(messages: ModelMessage[]) {
    const writer = createSession({ home, cwd: root, provider: 'mock', model: 'mock' });
    for (const message of messages) writer.appendMessage(message);
    writer.close();
    return loadSession(home, writer.id).messages;
  }

  test('in the next tool message: the first is kept, the second dropped', () => {
    const loaded = savedAndLoaded([{ role: 'user', content: 'go' }, call('c1'), result('c1', 'first'), result('c1', 'second'), { role: 'user', content: 'more' }]);
    assert.deepEqual(
      resultsOf(loaded, 'c1').map((part) => (part as { output: { value: string } }).output.value),
      ['first'],
    );
  });

  test('after a result inside the assistant message (a provider-executed tool): the tool message one is dropped', () => {
    const answeredInside: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c2', toolName: 'web_search', input: { q: 'x' }, providerExecuted: true },
        { type: 'tool-result', toolCallId: 'c2', toolName: 'web_search', output: { type: 'text', value: 'inside' } },
      ],
    };
    const loaded = savedAndLoaded([{ role: 'user', content: 'go' }, answeredInside, result('c2', 'again'), { role: 'user', content: 'more' }]);
    assert.equal(resultsOf(loaded, 'c2').length, 1, JSON.stringify(loaded));
  });
});
