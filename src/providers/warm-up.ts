import type { ToolSet } from 'ai';
import { declaredOnly } from '../shared/tool-declarations.ts';

/**
 * Does ahead, while the user types, the one-time work the first request would otherwise wait for:
 * Node loads its HTTP client (undici, ~30 ms) when `Headers`, `Request` or `Response` is first
 * touched or `fetch` first called (merely reading `globalThis.fetch` loads nothing), and the first
 * conversion of the tools' schemas to JSON Schema runs cold code. Called once the runtime is loaded;
 * never throws. `http: false` (the mock model) leaves the HTTP client alone.
 */
export function warmUpFirstRequest(tools: ToolSet, { http = true }: { http?: boolean } = {}): void {
  try {
    // The providers' first act is `new Headers(…)`; its lazy global loads undici, fetch included.
    // The mock model sends nothing, so a session with it does not load undici until a tool fetches.
    if (http) void globalThis.Headers;
    // Through the declarations the loop offers, so the conversion done here is the one it sends.
    for (const declared of Object.values(declaredOnly(tools))) void (declared.inputSchema as { jsonSchema?: unknown }).jsonSchema;
  } catch {
    // Only a head start: the first request does the same work if this could not.
  }
}
