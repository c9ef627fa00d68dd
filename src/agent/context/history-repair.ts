import type { AssistantContent, AssistantModelMessage, ModelMessage, ToolContent, ToolModelMessage, ToolResultPart } from 'ai';

/** The text of the synthetic result given to a tool call that never got one. */
export const INTERRUPTED_TOOL_RESULT_TEXT =
  'Interrupted: this tool call did not finish (the turn was stopped). Do not assume it ran.';

/** A tool call with no tool result in the tool message(s) right after it. */
export interface UnansweredToolCall {
  /** Index of the assistant message holding the call. */
  messageIndex: number;
  toolCallId: string;
  toolName: string;
}

/**
 * Lists every assistant tool call that has no tool result in the tool message(s) that directly follow
 * its assistant message (before the next user or assistant message). Results inside the assistant
 * message itself (provider-executed tools) count as answers. Pure, O(n), never throws.
 */
export function findUnansweredToolCalls(messages: readonly ModelMessage[]): UnansweredToolCall[] {
  const unanswered: UnansweredToolCall[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (!isRecord(message) || message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const calls = new Map<string, string>();
    for (const part of message.content) {
      if (isPartOfType(part, 'tool-call')) calls.set(part.toolCallId, String(part.toolName));
    }
    for (const part of message.content) {
      if (isPartOfType(part, 'tool-result')) calls.delete(part.toolCallId);
    }
    for (let next = index + 1; next < messages.length && calls.size > 0; next++) {
      const following = messages[next];
      if (!isRecord(following) || following.role !== 'tool') break;
      if (!Array.isArray(following.content)) continue;
      for (const part of following.content) {
        if (isPartOfType(part, 'tool-result')) calls.delete(part.toolCallId);
      }
    }
    for (const [toolCallId, toolName] of calls) unanswered.push({ messageIndex: index, toolCallId, toolName });
  }
  return unanswered;
}

/**
 * What a stopped turn owes its last step: an interrupted result for each call of the last assistant
 * message left without one (the user stopped the turn while it was asked about or before it ran), as
 * one tool message to append, so the saved session says the calls were stopped rather than lost.
 * Undefined when every call there is answered. Pure, never throws.
 */
export function interruptedResults(messages: readonly ModelMessage[]): ToolModelMessage | undefined {
  let last = messages.length - 1;
  while (last >= 0 && messages[last]?.role !== 'assistant') last--;
  const owed = findUnansweredToolCalls(messages).filter((call) => call.messageIndex === last);
  if (owed.length === 0) return undefined;
  return {
    role: 'tool',
    content: owed.map(({ toolCallId, toolName }) => ({
      type: 'tool-result',
      toolCallId,
      toolName,
      output: { type: 'error-text', value: INTERRUPTED_TOOL_RESULT_TEXT },
    })),
  };
}

/** The tool calls of one assistant message, while its tool messages are being read. */
interface OpenBlock {
  /** toolCallId → call state, in call order. */
  calls: Map<string, { toolName: string; answered: boolean; deniedReason?: string | undefined; denied: boolean }>;
  /** approvalId → toolCallId, from the assistant message's approval requests. */
  approvals: Map<string, string>;
  /** Index in the output of the first tool message of this block, if any. */
  toolMessageIndex: number | undefined;
}

/**
 * Makes a history valid for the next request, following the integrity rule: every assistant tool
 * call is followed, in the tool message(s) right after it, by exactly one tool result.
 * - an unanswered call gets a synthetic `error-text` result (`INTERRUPTED_TOOL_RESULT_TEXT`), or an
 *   `execution-denied` result when the user had denied it; it goes into the first tool message after
 *   the assistant message, or a new tool message right after it;
 * - tool results whose call is unknown (or not in the directly preceding assistant message) and
 *   duplicate results are dropped;
 * - approval requests and responses are dropped: once every call has its result they are settled and
 *   no longer pending. So use this on histories at rest (a loaded session, after a stopped turn), not
 *   between an approval request and the request that continues it;
 * - messages left empty (and parts that are not objects) are removed.
 * Unchanged messages keep their identity (so token estimates stay cached). Pure, O(n), never throws.
 */
export function repairHistory(messages: readonly ModelMessage[]): ModelMessage[] {
  const output: ModelMessage[] = [];
  let block: OpenBlock | undefined;

  const closeBlock = (): void => {
    if (block !== undefined) appendSyntheticResults(output, block);
    block = undefined;
  };

  for (const message of messages as readonly unknown[]) {
    if (!isModelMessage(message)) continue;
    if (message.role === 'assistant') {
      closeBlock();
      const repaired = repairAssistantMessage(message);
      block = repaired.block;
      if (repaired.message !== undefined) output.push(repaired.message);
    } else if (message.role === 'tool') {
      const repaired = repairToolMessage(message, block);
      if (repaired === undefined) continue;
      if (block !== undefined && block.toolMessageIndex === undefined) block.toolMessageIndex = output.length;
      output.push(repaired);
    } else if (message.role === 'user' || message.role === 'system') {
      closeBlock();
      output.push(message);
    }
  }
  closeBlock();
  return output;
}

function repairAssistantMessage(message: AssistantModelMessage): {
  message: ModelMessage | undefined;
  block: OpenBlock | undefined;
} {
  if (typeof message.content === 'string') return { message, block: undefined };
  if (!Array.isArray(message.content)) return { message: undefined, block: undefined };
  const block: OpenBlock = { calls: new Map(), approvals: new Map(), toolMessageIndex: undefined };
  const kept: Exclude<AssistantContent, string> = [];
  for (const part of message.content as readonly unknown[]) {
    if (!isRecord(part) || typeof part.type !== 'string') continue;
    if (part.type === 'tool-approval-request') {
      if (typeof part.approvalId === 'string' && typeof part.toolCallId === 'string') {
        block.approvals.set(part.approvalId, part.toolCallId);
      }
      continue;
    }
    if (part.type === 'tool-call') {
      if (typeof part.toolCallId !== 'string' || block.calls.has(part.toolCallId)) continue;
      block.calls.set(part.toolCallId, { toolName: String(part.toolName), answered: false, denied: false });
    }
    kept.push(part as Exclude<AssistantContent, string>[number]);
  }
  for (const part of kept) {
    const call = part.type === 'tool-result' ? block.calls.get(part.toolCallId) : undefined;
    if (call !== undefined) call.answered = true;
  }
  if (kept.length === 0) return { message: undefined, block };
  return { message: kept.length === message.content.length ? message : { ...message, content: kept }, block };
}

function repairToolMessage(message: ToolModelMessage, block: OpenBlock | undefined): ModelMessage | undefined {
  if (!Array.isArray(message.content) || block === undefined) return undefined;
  const kept: ToolContent = [];
  for (const part of message.content as readonly unknown[]) {
    if (!isRecord(part)) continue;
    if (part.type === 'tool-result' && typeof part.toolCallId === 'string') {
      const call = block.calls.get(part.toolCallId);
      if (call === undefined || call.answered) continue;
      call.answered = true;
      kept.push(part as unknown as ToolResultPart);
    } else if (part.type === 'tool-approval-response' && part.approved === false && typeof part.approvalId === 'string') {
      const toolCallId = block.approvals.get(part.approvalId);
      const call = toolCallId === undefined ? undefined : block.calls.get(toolCallId);
      if (call !== undefined) {
        call.denied = true;
        call.deniedReason = typeof part.reason === 'string' ? part.reason : undefined;
      }
    }
  }
  if (kept.length === 0) return undefined;
  return kept.length === message.content.length ? message : { ...message, content: kept };
}

function appendSyntheticResults(output: ModelMessage[], block: OpenBlock): void {
  const synthetic: ToolResultPart[] = [];
  for (const [toolCallId, call] of block.calls) {
    if (call.answered) continue;
    synthetic.push({
      type: 'tool-result',
      toolCallId,
      toolName: call.toolName,
      output: call.denied
        ? { type: 'execution-denied', ...(call.deniedReason === undefined ? {} : { reason: call.deniedReason }) }
        : { type: 'error-text', value: INTERRUPTED_TOOL_RESULT_TEXT },
    });
  }
  if (synthetic.length === 0) return;
  const existing = block.toolMessageIndex === undefined ? undefined : output[block.toolMessageIndex];
  if (block.toolMessageIndex !== undefined && existing?.role === 'tool') {
    output[block.toolMessageIndex] = { ...existing, content: [...existing.content, ...synthetic] };
  } else {
    output.push({ role: 'tool', content: synthetic });
  }
}

function isModelMessage(value: unknown): value is ModelMessage {
  return isRecord(value) && (value.role === 'user' || value.role === 'assistant' || value.role === 'tool' || value.role === 'system');
}

function isPartOfType(part: unknown, type: string): part is { type: string; toolCallId: string; toolName?: unknown } {
  return isRecord(part) && part.type === type && typeof part.toolCallId === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
