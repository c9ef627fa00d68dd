/** A JSON string as the SDK writes it: any character but a quote or a backslash, or an escape. */
const STRING = '"(?:[^"\\\\]|\\\\.)*"';
const TEXT_PART = `\\{"type":"text","text":${STRING}\\}`;
/** A message's content that is only text parts, each with no key but `type` and `text`. */
const TEXT_ONLY_CONTENT = new RegExp(`"content":(\\[${TEXT_PART}(?:,${TEXT_PART})*\\])`, 'g');

/**
 * A chat request body with every message whose content is only text parts without cache control
 * (`[{ type: 'text', text }]`, as @ai-sdk/alibaba packs each user message) written with plain
 * string content, as DashScope's documentation and every OpenAI-compatible server expect for
 * text. Anything else — images, cache_control — is sent unchanged.
 *
 * Rewritten in place, without parsing the body: it holds the whole history, and parsing and
 * writing it again at every request made a request at turn 300 wait twice as long as at turn 10.
 * A quote cannot appear unescaped inside a JSON string, so `"content":[` only ever starts a key.
 */
export function plainTextContent(body: string): string {
  if (!body.includes('"type":"text"')) return body;
  return body.replace(TEXT_ONLY_CONTENT, (_, parts: string) => {
    const texts = (JSON.parse(parts) as Array<{ text: string }>).map((part) => part.text);
    return `"content":${JSON.stringify(texts.join(''))}`;
  });
}
