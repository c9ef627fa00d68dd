import { asSchema, type ToolSet } from 'ai';

/**
 * Does ahead, while the user types, the one-time work the first request would otherwise wait for:
 * Node loads its HTTP client (undici) on the first touch of `fetch`, and the first conversion of the
 * tools' schemas to JSON Schema runs cold code. Called once the runtime is loaded; never throws.
 */
export function warmUpFirstRequest(tools: ToolSet): void {
  try {
    void globalThis.fetch;
    for (const tool of Object.values(tools)) void asSchema(tool.inputSchema).jsonSchema;
  } catch {
    // Only a head start: the first request does the same work if this could not.
  }
}
