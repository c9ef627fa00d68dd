import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentEvent } from '../../src/agent/loop/events.ts';
import { redactEvent } from '../../src/agent/loop/redact-events.ts';

const KEY = 'sk-sylvan-subagent-secret-91aa';

test("a subagent's tool error and call input are scrubbed of the keys Sylvan holds, as the main agent's are", () => {
  const inner: AgentEvent = { type: 'tool-error', toolCallId: 'c1', toolName: 'web_fetch', error: `401 for key ${KEY}` };
  const call: AgentEvent = { type: 'tool-call', toolCallId: 'c2', toolName: 'run_command', input: { command: `echo ${KEY}` } };
  const wrap = (event: AgentEvent): AgentEvent => ({ type: 'subagent', agentId: 'general-1', agent: 'general', description: 'd', toolCallId: 't', event });
  const shown = JSON.stringify([redactEvent(wrap(inner), [KEY]), redactEvent(wrap(call), [KEY])]);
  assert.doesNotMatch(shown, new RegExp(KEY));
  assert.match(shown, /\[redacted\]/);
});
