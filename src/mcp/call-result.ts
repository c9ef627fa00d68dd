/** The most a tool result from an MCP server may put in front of the model, like the built-in tools. */
export const MAX_RESULT_CHARS = 8_000;
import { digits } from '../shared/text/count-text.ts';

type Block = { type?: unknown; [key: string]: unknown };

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Roughly how many bytes a base64 string decodes to. */
export const decodedBytes = (base64: string): number => Math.floor((base64.replace(/=+$/, '').length * 3) / 4);

function describeBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return text(block.text) ?? '';
    case 'image':
    case 'audio': {
      const data = text(block.data) ?? '';
      return `[${block.type} ${text(block.mimeType) ?? 'of unknown type'}, ${digits(decodedBytes(data))} bytes, not shown to you]`;
    }
    case 'resource': {
      const resource = (block.resource ?? {}) as Block;
      const uri = text(resource.uri) ?? 'unknown';
      const body = text(resource.text);
      if (body !== undefined) return `[resource ${uri}]\n${body}`;
      return `[resource ${uri}, ${text(resource.mimeType) ?? 'binary'}, ${digits(decodedBytes(text(resource.blob) ?? ''))} bytes, not shown to you]`;
    }
    case 'resource_link':
      return `[resource link ${text(block.uri) ?? ''}${block.name ? ` (${String(block.name)})` : ''}]`;
    default:
      return `[a ${typeof block.type === 'string' ? block.type : 'unknown'} block Sylvan cannot show]`;
  }
}

/** Cuts `body` to the bound, saying so, so the model never mistakes a cut result for a whole one. */
export function bounded(body: string, limit = MAX_RESULT_CHARS): string {
  if (body.length <= limit) return body;
  return `${body.slice(0, limit)}\n[… cut: the result had ${digits(body.length)} characters, only the first ${digits(limit)} are shown]`;
}

/**
 * An MCP `tools/call` result as text for the model: text as is, images and audio described,
 * resources inlined when textual, structured content as JSON when there is nothing else. An
 * `isError` result throws, so the model reads it as the tool's error.
 */
export function resultText(result: unknown): string {
  const record = (result ?? {}) as { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown };
  let body: string;
  if (Array.isArray(record.content) && record.content.length > 0) {
    body = record.content.map((block) => describeBlock((block ?? {}) as Block)).join('\n');
  } else if (record.structuredContent !== undefined) {
    body = JSON.stringify(record.structuredContent);
  } else if (record.toolResult !== undefined) {
    body = typeof record.toolResult === 'string' ? record.toolResult : JSON.stringify(record.toolResult);
  } else {
    body = '(the tool returned nothing)';
  }
  if (record.isError === true) throw new Error(bounded(body || 'The tool reported an error without a message.'));
  return bounded(body);
}
