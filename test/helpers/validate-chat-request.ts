import { randomUUID } from 'node:crypto';

/** DashScope's default error texts, by HTTP status. */
const defaultErrors: Record<number, { message: string; type: string; code: string }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: 'invalid_parameter_error' },
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { message: 'Not Found.', type: 'invalid_request_error', code: 'not_found' },
  429: { message: 'Requests rate limit exceeded, please try again later.', type: 'limit_requests', code: 'limit_requests' },
  500: { message: 'An internal error has occured, please try again later or contact service support.', type: 'internal_error', code: 'internal_error' },
};

/** DashScope's compatible-mode error body: `{ error: { message, type, param, code }, id, request_id }`. */
export function dashScopeError(status: number, message?: string): object {
  const known = defaultErrors[status] ?? { message: `HTTP ${status}`, type: 'api_error', code: 'api_error' };
  return {
    error: { message: message ?? known.message, type: known.type, param: null, code: known.code },
    id: `chatcmpl-${randomUUID()}`,
    request_id: randomUUID(),
  };
}

/** DashScope's wording for a tool message that answers no call (its typo included). */
const toolWithoutCall = 'messages with role "tool" must be a response to a preceeding message with "tool_calls".';

/**
 * Checks a chat-completions body the way DashScope does and returns its complaint, or undefined when the
 * request is acceptable: non-empty `messages`, `system` only first, every assistant `tool_calls` answered by
 * the `tool` messages right after it, and no `tool` message without a matching call.
 */
export function validateChatRequest(body: unknown): string | undefined {
  if (!isRecord(body)) return 'The request body must be a JSON object.';
  if (typeof body.model !== 'string' || body.model === '') return 'Model not specified: "model" must be a non-empty string.';
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return '"messages" must be a non-empty array.';
  let unanswered: string[] = [];
  for (const [position, message] of messages.entries()) {
    if (!isRecord(message)) return `messages[${position}] must be an object.`;
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (typeof id !== 'string' || !unanswered.includes(id)) return toolWithoutCall;
      unanswered = unanswered.filter((pending) => pending !== id);
      continue;
    }
    if (unanswered.length > 0) return danglingToolCalls(position);
    switch (message.role) {
      case 'system':
        if (position !== 0) return `The system message must be the first message, but messages[${position}] is a system message.`;
        break;
      case 'user':
        if (typeof message.content !== 'string' && !Array.isArray(message.content)) return `messages[${position}] (user) has no content.`;
        break;
      case 'assistant': {
        const calls = message.tool_calls;
        if (calls === undefined || calls === null) break;
        if (!Array.isArray(calls) || calls.length === 0) return `messages[${position}].tool_calls must be a non-empty array.`;
        for (const call of calls) {
          const wellFormed = isRecord(call) && typeof call.id === 'string' && call.id !== '' && call.type === 'function' &&
            isRecord(call.function) && typeof call.function.name === 'string' && typeof call.function.arguments === 'string';
          if (!wellFormed) return `messages[${position}].tool_calls entries need id, type "function", function.name and function.arguments (a string).`;
          unanswered.push(call.id as string);
        }
        break;
      }
      default:
        return `messages[${position}].role ${JSON.stringify(message.role)} is not one of system, user, assistant, tool.`;
    }
  }
  return unanswered.length > 0 ? danglingToolCalls(messages.length) : undefined;
}

function danglingToolCalls(position: number): string {
  return 'An assistant message with "tool_calls" must be followed by tool messages responding to each "tool_call_id". ' +
    `The following tool_call_ids did not have response messages: message[${position}].role`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

