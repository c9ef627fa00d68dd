/**
 * A chat request body with every message whose content is only text parts without cache control
 * (`[{ type: 'text', text }]`, as @ai-sdk/alibaba packs each user message) written with plain
 * string content, as DashScope's documentation and every OpenAI-compatible server expect for
 * text. Anything else — images, cache_control, a body that is not JSON — is sent unchanged.
 */
export function plainTextContent(body: string): string {
  if (!body.includes('"type":"text"')) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  const messages = (parsed as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return body;
  let changed = false;
  for (const message of messages as Array<{ content?: unknown }>) {
    if (!Array.isArray(message?.content) || message.content.length === 0) continue;
    const parts = message.content as Array<Record<string, unknown>>;
    const plain = parts.every((part) => part?.type === 'text' && typeof part.text === 'string' && Object.keys(part).length === 2);
    if (!plain) continue;
    message.content = parts.map((part) => part.text as string).join('');
    changed = true;
  }
  return changed ? JSON.stringify(parsed) : body;
}
