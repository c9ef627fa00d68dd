import type { ToolSpec } from '../tools/tool-spec.ts';

/** Reads of what a configured MCP server serves: `resources/read` is read-only by the protocol, so plan mode offers them. */
export const listResourcesSpec: ToolSpec<'list_mcp_resources'> = { name: 'list_mcp_resources', kind: 'read' };
export const readResourceSpec: ToolSpec<'read_mcp_resource'> = { name: 'read_mcp_resource', kind: 'read' };
