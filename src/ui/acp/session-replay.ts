import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ModelMessage } from 'ai';
import { isCompactionSummary } from '../../shared/compaction-summary.ts';
import type { ToolSpecLookup } from '../../tools/tool-spec.ts';
import { redactDeep } from './redact-deep.ts';
import { toolCallFailed, toolCallFinished, toolCallStarted } from './tool-call-updates.ts';

const text = (value: string) => ({ type: 'text' as const, text: value });

/** A tool result's output as the model read it. */
function outputOf(output: unknown): { failed: boolean; value: unknown } {
  const part = output as { type?: string; value?: unknown; reason?: string } | undefined;
  if (part?.type === 'error-text' || part?.type === 'error-json') return { failed: true, value: part.value };
  if (part?.type === 'execution-denied') return { failed: true, value: part.reason ?? 'Not approved.' };
  return { failed: false, value: part?.value ?? output };
}

/**
 * A saved conversation as the `session/update`s that draw it again (`session/load`): the user's
 * words, the answers and thoughts, each tool call with its result. `redact` is applied to every
 * string, as the session file was.
 */
export function replayUpdates(messages: readonly ModelMessage[], specOf: ToolSpecLookup, workspaceRoot: string, redact: (text: string) => string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const inputs = new Map<string, unknown>();
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'user') {
      const words = typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      const shown = isCompactionSummary(message) ? `(earlier turns, summarised)\n${words}` : words;
      if (shown !== '') updates.push({ sessionUpdate: 'user_message_chunk', content: text(redact(shown)) });
      continue;
    }
    if (message.role === 'assistant') {
      if (typeof message.content === 'string') {
        if (message.content !== '') updates.push({ sessionUpdate: 'agent_message_chunk', content: text(redact(message.content)) });
        continue;
      }
      for (const part of message.content) {
        if (part.type === 'text' && part.text !== '') updates.push({ sessionUpdate: 'agent_message_chunk', content: text(redact(part.text)) });
        if (part.type === 'reasoning' && part.text !== '') updates.push({ sessionUpdate: 'agent_thought_chunk', content: text(redact(part.text)) });
        if (part.type === 'tool-call') {
          const input = redactDeep(part.input ?? {}, redact);
          inputs.set(part.toolCallId, input);
          names.set(part.toolCallId, part.toolName);
          updates.push(toolCallStarted({ toolCallId: part.toolCallId, toolName: part.toolName, input }, specOf(part.toolName), workspaceRoot));
        }
      }
      continue;
    }
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const { failed, value } = outputOf(part.output);
        const shown = redact(typeof value === 'string' ? value : JSON.stringify(value ?? null));
        updates.push(
          failed
            ? toolCallFailed(part.toolCallId, shown)
            : toolCallFinished({ toolCallId: part.toolCallId, input: inputs.get(part.toolCallId), output: shown }, specOf(names.get(part.toolCallId) ?? part.toolName), workspaceRoot),
        );
      }
    }
  }
  return updates;
}
