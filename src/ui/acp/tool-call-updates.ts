import type { SessionUpdate, ToolCallContent, ToolCallLocation, ToolKind as AcpToolKind } from '@agentclientprotocol/sdk';
import { join } from 'node:path';
import type { ToolKind, ToolSpec } from '../../tools/tool-spec.ts';

/** Sylvan's kinds as ACP names them: a write and an edit are both edits, a command is execute. */
const KINDS: Record<ToolKind, AcpToolKind> = {
  read: 'read',
  search: 'search',
  fetch: 'fetch',
  think: 'think',
  write: 'edit',
  edit: 'edit',
  command: 'execute',
  // A subagent's run: ACP has no kind for it; its own calls are not shown to the editor one by one.
  delegate: 'other',
  other: 'other',
};

/** ACP's kind for a Sylvan kind; a tool that declared none is `other`. */
export const acpKind = (kind: ToolKind | undefined): AcpToolKind => (kind ? KINDS[kind] : 'other');

const field = (input: unknown, name: string): string | undefined => {
  const value = (input as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** The `tool_call` an editor shows when the model calls a tool: a title, its kind, the file it touches and the raw input. */
export function toolCallStarted(call: { toolCallId: string; toolName: string; input: unknown }, spec: ToolSpec | undefined, workspaceRoot: string): SessionUpdate {
  const path = field(call.input, 'path');
  const subject = field(call.input, 'command') ?? path ?? field(call.input, 'pattern') ?? field(call.input, 'url') ?? field(call.input, 'query');
  const locations: ToolCallLocation[] = path === undefined ? [] : [{ path: join(workspaceRoot, path) }];
  return {
    sessionUpdate: 'tool_call',
    toolCallId: call.toolCallId,
    title: subject === undefined ? call.toolName : `${call.toolName} ${subject.split('\n')[0]!.slice(0, 200)}`,
    kind: acpKind(spec?.kind),
    status: 'pending',
    locations,
    rawInput: call.input as Record<string, unknown>,
  };
}

/**
 * What a finished call shows: a file change as a diff (the new text of a write, the replaced text
 * of an edit), anything else as its text output.
 */
export function toolCallFinished(
  call: { toolCallId: string; input: unknown; output: unknown },
  spec: ToolSpec | undefined,
  workspaceRoot: string,
): SessionUpdate {
  const path = field(call.input, 'path');
  const text = typeof call.output === 'string' ? call.output : JSON.stringify(call.output ?? null);
  const content: ToolCallContent[] = [{ type: 'content', content: { type: 'text', text } }];
  if (path !== undefined && spec?.kind === 'write') {
    content.unshift({ type: 'diff', path: join(workspaceRoot, path), oldText: null, newText: field(call.input, 'content') ?? '' });
  } else if (path !== undefined && spec?.kind === 'edit') {
    content.unshift({ type: 'diff', path: join(workspaceRoot, path), oldText: field(call.input, 'old_text') ?? '', newText: field(call.input, 'new_text') ?? '' });
  }
  return { sessionUpdate: 'tool_call_update', toolCallId: call.toolCallId, status: 'completed', content, rawOutput: { output: text } };
}

/** A call that failed, was refused or was stopped: its reason as the content. */
export function toolCallFailed(toolCallId: string, reason: string): SessionUpdate {
  return { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: reason } }] };
}

/** A running command's latest lines. */
export function toolCallProgress(toolCallId: string, text: string): SessionUpdate {
  return { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text } }] };
}
