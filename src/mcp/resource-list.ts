import { shortDescription, UNTYPABLE } from './prompt-list.ts';

/** A resource of a server as Sylvan keeps it: what `@server:uri` and `list_mcp_resources` offer. */
export interface McpResource {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** Resources of one server kept for completion, `/mcp` and `list_mcp_resources` (the first ones it lists). */
export const MAX_RESOURCES = 200;
/** A longer URI (or one with a space or a control character, which cannot follow `@`) is left out of the list; it can still be read. */
const MAX_RESOURCE_URI_CHARS = 1_000;
/** `resources/list` pages asked for at most, however many the server has. */
export const MAX_RESOURCE_PAGES = 10;

const MAX_NAME_CHARS = 100;

function toResource(listed: unknown): McpResource | undefined {
  const record = (listed ?? {}) as { uri?: unknown; name?: unknown; description?: unknown; mimeType?: unknown };
  const uri = record.uri;
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > MAX_RESOURCE_URI_CHARS || UNTYPABLE.test(uri)) return undefined;
  return {
    uri,
    name: shortDescription(record.name, MAX_NAME_CHARS) ?? uri,
    description: shortDescription(record.description),
    mimeType: typeof record.mimeType === 'string' ? record.mimeType.slice(0, MAX_NAME_CHARS) : undefined,
  };
}

/**
 * The resources of a server's `resources/list` pages that Sylvan keeps: in the server's order, at
 * most `MAX_RESOURCES`, each with a URI of one word and at most 1,000 characters, names and
 * descriptions cut to one line.
 */
export function boundResourceList(listed: readonly unknown[], maxResources = MAX_RESOURCES): { kept: McpResource[]; listedCount: number } {
  const kept: McpResource[] = [];
  for (const item of listed) {
    if (kept.length >= maxResources) break;
    const resource = toResource(item);
    if (resource && !kept.some((other) => other.uri === resource.uri)) kept.push(resource);
  }
  return { kept, listedCount: listed.length };
}
