import type { Tool } from 'ai';
import type { SearchConfig } from './web-config.ts';
import { createWebFetchTool } from './web-fetch.ts';
import { createWebSearchTool, searchBackendFor } from './web-search.ts';
import { webFetchSpec } from './web-fetch-spec.ts';
import { webSearchSpec } from './web-search-spec.ts';

/**
 * The web family for the registry: `web_search` only when a backend is available (a key, a
 * SearXNG URL, or the sample data), `web_fetch` unless the user switched the web off.
 */
export function createWebTools(search: SearchConfig | undefined, options: { fetch?: typeof fetch; toolTimeoutMs: number }): Record<string, Tool> {
  if (!search) return {};
  const tools: Record<string, Tool> = {};
  // Below the SDK's own tool limit, so the model gets the backend's own message, not a bare timeout.
  const timeoutMs = Math.max(100, Math.min(15_000, options.toolTimeoutMs - 200));
  const backend = searchBackendFor(search, { fetch: options.fetch, timeoutMs });
  if (backend) tools[webSearchSpec.name] = createWebSearchTool(backend);
  if (search.fetchEnabled) {
    tools[webFetchSpec.name] = createWebFetchTool({ allowPrivateAddresses: search.allowPrivateAddresses, timeoutMs: Math.max(100, Math.min(20_000, options.toolTimeoutMs - 200)) });
  }
  return tools;
}
