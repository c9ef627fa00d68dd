import type { ModelMessage, UserModelMessage } from 'ai';
import type { TaskCall } from '../tools/task/task-tool.ts';

/** What a fork's calls beside it are answered with: the fork's history needs one result per call. */
const BESIDE_THE_FORK = '(running in another subagent)';

/**
 * Where a fork starts: the messages the parent's step sent, the parent's answer that holds the
 * `task` call, and a result for each of that answer's calls — so the fork's first request repeats
 * the parent's last one byte for byte before adding to it (DashScope's cache then serves the
 * prefix). Then the fork's own instruction as the user's message.
 */
export function forkStart(history: readonly ModelMessage[], call: TaskCall): { messages: ModelMessage[]; userMessage: (prompt: string) => UserModelMessage['content'] } {
  const answer = [...history].reverse().find((message) => message.role === 'assistant');
  const calls = answer && typeof answer.content !== 'string' ? answer.content.filter((part) => part.type === 'tool-call') : [];
  const messages: ModelMessage[] = [...call.messages];
  if (answer) messages.push(answer);
  if (calls.length > 0) {
    messages.push({
      role: 'tool',
      content: calls.map((part) => ({
        type: 'tool-result' as const,
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: { type: 'text' as const, value: part.toolCallId === call.toolCallId ? '(this call is you: the fork that carries on from here)' : BESIDE_THE_FORK },
      })),
    });
  }
  return {
    messages,
    userMessage: (prompt) =>
      `You are a fork of the conversation above: carry out the following yourself with the tools you have, then answer briefly; your last message is what the main agent reads.\n\n${prompt}`,
  };
}
