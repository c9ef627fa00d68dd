import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { countOf } from '../shared/text/count-text.ts';
import { bounded } from './call-result.ts';
import { listResourcesSpec, readResourceSpec } from './resource-tool-specs.ts';
import type { ResourceText } from './resource-contents.ts';
import type { McpResource } from './resource-list.ts';

/** What the two resource tools read: the ready servers that offer resources. */
export interface ResourceSource {
  resourceServers(): { name: string; resources: readonly McpResource[]; listedCount?: number }[];
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<ResourceText>;
}

/**
 * `list_mcp_resources` and `read_mcp_resource`, offered while a ready server offers resources.
 * They only read what a server the user configured serves (as `read_file` reads the workspace), so
 * they ask no approval and plan mode offers them; results are bounded like any MCP tool result.
 */
export function createResourceTools(source: ResourceSource): ToolSet {
  const serverNamed = (name: string) => {
    const servers = source.resourceServers();
    const found = servers.find((server) => server.name === name);
    if (found) return found;
    const offering = servers.map((server) => server.name);
    throw new Error(
      `No running MCP server named ${JSON.stringify(name)} offers resources.` +
        (offering.length > 0 ? ` Servers with resources: ${offering.join(', ')}.` : ' None does right now.'),
    );
  };
  return {
    [listResourcesSpec.name]: tool({
      description:
        'List the resources (documents and data) the MCP servers offer: server, URI, name, type. Read one with read_mcp_resource.',
      inputSchema: z.object({ server: z.string().optional().describe('Only this MCP server; all servers when absent') }),
      execute: async ({ server }) => {
        const servers = server === undefined ? source.resourceServers() : [serverNamed(server)];
        const lines: string[] = [];
        for (const entry of servers) {
          const more = entry.listedCount === undefined ? '' : ` (the first ${entry.resources.length} of ${entry.listedCount})`;
          lines.push(`${entry.name}: ${entry.resources.length === 0 ? 'no resources listed' : `${countOf(entry.resources.length, 'resource')}${more}`}`);
          for (const resource of entry.resources) {
            const details = [resource.name !== resource.uri ? resource.name : '', resource.mimeType ?? '', resource.description ?? ''].filter(Boolean).join(' · ');
            lines.push(`  ${resource.uri}${details ? `  ${details}` : ''}`);
          }
        }
        return bounded(lines.join('\n') || 'No MCP server offers resources right now.');
      },
    }),
    [readResourceSpec.name]: tool({
      description: "Read one resource of an MCP server by its URI (from list_mcp_resources, or one the user named as @server:uri). Text only; binary parts are named, not returned.",
      inputSchema: z.object({
        server: z.string().describe('The MCP server, as list_mcp_resources names it'),
        uri: z.string().describe('The resource URI'),
      }),
      execute: async ({ server, uri }, { abortSignal }) => {
        serverNamed(server);
        const read = await source.readResource(server, uri, abortSignal);
        const skipped = read.skipped.map((part) => `[${part}: not returned, Sylvan reads only text]`);
        if (read.text === '' && skipped.length === 0) return `${uri} is empty.`;
        return [read.text, ...skipped].filter(Boolean).join('\n');
      },
    }),
  };
}
