import { argumentSummary } from '../../commands/mcp-prompt-arguments.ts';
import type { RuntimeMcp } from '../../mcp/runtime-mcp.ts';
import { sanitizeLine } from '../sanitize.ts';
import type { McpCompletionSource } from './completion.ts';

/** A server name that can stand in `/server:prompt` and `@server:uri`. */
const typable = (server: string) => /^[^\s:/]+$/.test(server) && sanitizeLine(server) === server;

/**
 * The MCP servers' prompts (as `/server:prompt`, with their description and arguments) and
 * resources for the `/` menu and `@server:` completion; empty until the runtime and its servers are up.
 */
export function mcpCompletion(mcp: () => RuntimeMcp | undefined): McpCompletionSource {
  return {
    commands: () =>
      (mcp()?.prompts() ?? [])
        .filter(({ server }) => typable(server))
        .map(({ server, prompt }) => ({
          name: `/${server}:${prompt.name}`,
          summary: sanitizeLine([prompt.description ?? `MCP prompt of ${server}`, argumentSummary(prompt)].filter(Boolean).join(' · ')),
        })),
    resourceServers: () => (mcp()?.resourceServers() ?? []).filter((server) => typable(server.name)),
  };
}
