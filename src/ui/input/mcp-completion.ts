import { argumentSummary } from '../../prompt-files/mcp-prompt-arguments.ts';
import type { RuntimeMcp } from '../../mcp/runtime-mcp.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import type { CommandSummary, ResourceSource } from './completion.ts';

/** A server name that can stand in `/server:prompt` and `@server:uri`. */
const typable = (server: string) => /^[^\s:/]+$/.test(server) && sanitizeLine(server) === server;

/** The MCP servers' prompts as `/server:prompt` commands, with their description and arguments; none until the servers are up. */
export function mcpPromptCommands(mcp: () => RuntimeMcp | undefined): () => readonly CommandSummary[] {
  return () =>
    (mcp()?.prompts() ?? [])
      .filter(({ server }) => typable(server))
      .map(({ server, prompt }) => ({
        name: `/${server}:${prompt.name}`,
        summary: sanitizeLine([prompt.description ?? `MCP prompt of ${server}`, argumentSummary(prompt)].filter(Boolean).join(' · ')),
      }));
}

/** The MCP servers' resources for `@server:` completion; none until the servers are up. */
export function mcpResources(mcp: () => RuntimeMcp | undefined): ResourceSource {
  return { resourceServers: () => (mcp()?.resourceServers() ?? []).filter((server) => typable(server.name)) };
}
