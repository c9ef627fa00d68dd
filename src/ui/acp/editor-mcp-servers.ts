import type { McpServer } from '@agentclientprotocol/sdk';
import type { Config } from '../../config/config.ts';

/**
 * The MCP servers the editor names in `session/new`, added to the configuration as one more
 * settings layer of the user's own (the editor is the user's, as their settings file is): they
 * start like the user's servers, fenced the same way, and their tools ask first (not trusted).
 * A name the user's settings already use keeps the user's server.
 */
export function withEditorMcpServers(config: Config, servers: readonly McpServer[]): Config {
  if (servers.length === 0) return config;
  const mcpServers: Record<string, unknown> = {};
  for (const server of servers) {
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      mcpServers[server.name] = { url: server.url, headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])) };
    } else if ('command' in server) {
      mcpServers[server.name] = { command: server.command, args: server.args, env: Object.fromEntries((server.env ?? []).map((variable) => [variable.name, variable.value])) };
    }
  }
  const layers = config.settings?.layers ?? [];
  const editorLayer = { file: 'the editor (ACP session/new)', trusted: true, values: { mcpServers } };
  const settings = config.settings ?? { environment: {}, layers: [], secretPatterns: [], notes: [], disabledSkills: [] };
  // Earlier layers are overridden by later ones: the user's files come last so their servers win.
  return { ...config, settings: { ...settings, layers: [editorLayer, ...layers] } };
}
