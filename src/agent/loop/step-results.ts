import type { ModelMessage } from 'ai';

/** A tool error as the user reads it: the SDK's error-class prefixes and schema dumps left out. */
export function readableToolError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const invalid = /Invalid input for tool (\w+)/.exec(text);
  const issuesStart = text.indexOf('Error message: [');
  if (invalid && issuesStart >= 0) {
    try {
      const issues = JSON.parse(text.slice(issuesStart + 'Error message: '.length)) as { path?: unknown[]; message?: string }[];
      const first = issues[0];
      if (first?.message) {
        const path = Array.isArray(first.path) && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
        return `invalid arguments for ${invalid[1]}: ${path}${first.message}`;
      }
    } catch {
      // Not the zod shape we know: fall through to the plain first line.
    }
  }
  const plain = text.replace(/\bAI_\w+Error: /g, '');
  return plain.split('\n')[0] ?? plain;
}

/** What the model reads for a call written when its answer hit the output limit. */
export const truncatedCallResult = (toolName: string): string =>
  `Not run: your answer hit the output limit (finish reason: length) while writing this ${toolName} call, so its arguments may be cut off. Re-issue the call complete, with shorter arguments if you can.`;

/**
 * The SDK answers a cut-off call whose JSON does not parse with its own parse error; the model
 * is better served by being told why, the same way as a cut-off call that did parse.
 */
function withTruncatedResults(message: ModelMessage, truncated: ReadonlySet<string>): ModelMessage {
  if (truncated.size === 0 || message.role !== 'tool') return message;
  return {
    ...message,
    content: message.content.map((part) =>
      part.type === 'tool-result' && truncated.has(part.toolCallId)
        ? { ...part, output: { type: 'error-text' as const, value: truncatedCallResult(part.toolName) } }
        : part,
    ),
  };
}


type ToolContent = Extract<ModelMessage, { role: 'tool' }>['content'];

/**
 * A step's response, split for the history: the model's own messages, kept as soon as the step is
 * read (so a call the user is asked about is in the session even if Sylvan is killed at the
 * question), and the SDK's answers to calls it could not parse (cut-off ones explained), which join
 * the results of the calls the loop ran in one tool message.
 */
export function splitResponse(response: readonly ModelMessage[], truncated: ReadonlySet<string>): { model: ModelMessage[]; answered: ToolContent } {
  const model: ModelMessage[] = [];
  const answered: ToolContent = [];
  for (const message of response) {
    if (message.role === 'tool') answered.push(...withTruncatedResults(message, truncated).content as ToolContent);
    else model.push(message);
  }
  return { model, answered };
}
