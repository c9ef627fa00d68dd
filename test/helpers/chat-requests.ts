import assert from 'node:assert/strict';
import type { ChatMessage, DashScopeServer, RecordedRequest } from './dashscope-server.ts';

/**
 * Every request the server saw passed its validator (no unanswered tool calls, no stray tool
 * message) and starts with the system prompt.
 */
export function assertEveryRequestValid(server: DashScopeServer): void {
  assert.ok(server.requests.length > 0, 'the server saw no request');
  for (const [index, request] of server.requests.entries()) {
    assert.equal(request.invalid, undefined, `request #${index + 1} was rejected: ${request.invalid}`);
    assert.equal(request.body?.messages?.[0]?.role, 'system', `request #${index + 1} does not start with the system prompt`);
  }
}

/** The n-th request (0-based) the server saw; fails the test when there is none. */
export function requestAt(server: DashScopeServer, index: number): RecordedRequest {
  const request = server.requests[index];
  assert.ok(request, `expected at least ${index + 1} requests, the server saw ${server.requests.length}`);
  return request;
}

/**
 * A message's text, whether its content is a string or text parts (as a DashScope cache marker sends
 * it: `[{ type: 'text', text, cache_control }]`); other content as JSON.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((part) => typeof part?.text === 'string')) return content.map((part) => part.text as string).join('');
  return JSON.stringify(content);
}

/** The messages of a request, without the system prompt. */
export function conversationOf(request: RecordedRequest): ChatMessage[] {
  return (request.body?.messages ?? []).slice(1);
}

/** The text of the tool message answering `toolCallId`; fails the test when the request has none. */
export function toolResultText(request: RecordedRequest, toolCallId: string): string {
  const message = (request.body?.messages ?? []).find((candidate) => candidate.role === 'tool' && candidate.tool_call_id === toolCallId);
  assert.ok(message, `the request carries no tool message for ${toolCallId}`);
  return contentText(message.content);
}
