import type { ToolSet } from 'ai';
import type { Config } from '../config/config.ts';
import { redactSecrets } from '../shared/redact-secrets.ts';
import { checkSettings } from '../config/settings/check-settings.ts';
import type { ToolSpec } from '../tools/tool-spec.ts';
import { withTimeoutMessages } from '../tools/with-timeout-messages.ts';
import type { McpHub, ServerSummary } from './mcp-hub.ts';
import type { McpPrompt } from './prompt-list.ts';
import type { PromptTurn } from './prompt-messages.ts';
import type { ResourceText } from './resource-contents.ts';
import type { McpResource } from './resource-list.ts';
import type { CommandSandbox } from '../sandbox/command-sandbox.ts';
import { isCredentialName, urlPassword } from '../sandbox/credential-variables.ts';
import type { McpServerConfig } from '../config/settings/mcp-server-config.ts';

/** What the runtime and the UI see of the MCP servers. */
export interface RuntimeMcp {
  /** Approval scope keys the user's settings approved ahead: allowed all session, kept by /approvals. */
  readonly approvedAhead: readonly string[];
  /** What a server's tool is (approval, plan mode): undefined for a name no ready server offers. */
  toolSpec(toolName: string): ToolSpec | undefined;
  /** The servers' keys as the settings give them: header values, credential variables, URL passwords. */
  readonly secrets: readonly string[];
  /** The tools of the servers ready now. */
  tools(): ToolSet;
  /** Waits (bounded) for every server to be ready or lost; print mode asks once, before its one turn. */
  settled(timeoutMs: number): Promise<void>;
  takeWarnings(): string[];
  /** Calls `listener` when a warning is added (a server failed, or stopped); returns the unsubscribe. */
  onWarnings?(listener: () => void): () => void;
  summaries(): ServerSummary[];
  /** The configured servers' names, ready or not. */
  readonly serverNames: readonly string[];
  /** The ready servers' prompts (what `/server:prompt` runs). */
  prompts(): { server: string; prompt: McpPrompt }[];
  /** The ready servers that offer resources, with their bounded lists. */
  resourceServers(): { name: string; resources: readonly McpResource[]; listedCount?: number }[];
  /** `prompts/get`; throws an error that says what happened. */
  getPrompt(server: string, name: string, args: Record<string, string>, signal?: AbortSignal): Promise<PromptTurn>;
  /** `resources/read`; throws an error that says what happened. */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<ResourceText>;
  pids(): number[];
  close(): Promise<void>;
}

/**
 * Checks the settings' `permissions` and `mcpServers` (zod, after the prompt; throws `ConfigError`)
 * and starts the servers in the background: the MCP SDK is loaded only when a server is configured.
 */
export function startRuntimeMcp(config: Config, sandbox?: CommandSandbox): RuntimeMcp {
  const checked = checkSettings(config.settings?.layers ?? []);
  // Told once, with the first turn's notices.
  const projectNotes = [...checked.notes];
  const toolTimeoutMs = config.toolTimeoutSeconds * 1000;
  let hub: McpHub | undefined;
  const warningListeners = new Set<() => void>();
  let closed = false;
  let closing: Promise<void> | undefined;
  const names = Object.keys(checked.mcpServers);
  const loading: Promise<unknown> =
    names.length === 0
      ? Promise.resolve()
      : import('./mcp-hub.ts').then(({ McpHub }) => {
          if (closed) return;
          hub = new McpHub({
            servers: checked.mcpServers,
            workspaceRoot: config.cwd,
            startTimeoutMs: (config.mcpStartTimeoutSeconds ?? 10) * 1000,
            callTimeoutMs: toolTimeoutMs,
            approvedTools: checked.approvedAhead.filter((key) => key.startsWith('mcp:')).map((key) => key.slice(4)),
            sandbox,
            onWarning: () => warningListeners.forEach((listener) => listener()),
          });
        });
  let loadFailure: string | undefined;
  const secrets = serverSecrets(Object.values(checked.mcpServers));
  // What a prompt or a resource puts into the user's message goes to the model like a tool result: no key in it.
  const held = [...new Set([...(config.secrets ?? []), ...secrets])];
  const scrub = <T extends { text: string; skipped: string[] }>(value: T): T => ({ ...value, text: redactSecrets(value.text, held) });
  loading.catch((error: unknown) => (loadFailure = `(MCP servers not started: ${(error as Error).message.split('\n')[0]})`));
  return {
    approvedAhead: checked.approvedAhead,
    secrets,
    toolSpec: (toolName) => hub?.toolSpec(toolName),
    tools: () => (hub ? withTimeoutMessages(hub.tools(), toolTimeoutMs) : {}),
    async settled(timeoutMs) {
      await loading.catch(() => {});
      // Each server's start ends by its own timer (timeoutMs after it was spawned, which is later
      // than now): a little longer here lets a server that timed out say so before the turn.
      await hub?.settled(timeoutMs + 2_000);
    },
    takeWarnings() {
      const warnings = [...projectNotes.splice(0), ...(hub?.takeWarnings() ?? [])];
      if (loadFailure) warnings.unshift(loadFailure);
      loadFailure = undefined;
      return warnings;
    },
    onWarnings(listener) {
      warningListeners.add(listener);
      return () => warningListeners.delete(listener);
    },
    summaries: () =>
      hub?.summaries() ??
      names.map((name) => ({
        name,
        status: 'starting' as const,
        toolCount: 0,
        toolNames: [],
        prompts: [],
        resources: [],
        listProblems: [],
        listed: false,
        transport: 'command' in (checked.mcpServers[name] ?? {}) ? ('stdio' as const) : ('http' as const),
        trusted: checked.mcpServers[name]?.trust === true,
        stderr: [],
      })),
    pids: () => hub?.pids() ?? [],
    serverNames: names,
    prompts: () => hub?.prompts() ?? [],
    resourceServers: () => hub?.resourceServers() ?? [],
    async getPrompt(server, name, args, signal) {
      if (!hub) throw new Error(`The MCP server ${server} is still starting.`);
      return scrub(await hub.getPrompt(server, name, args, signal));
    },
    async readResource(server, uri, signal) {
      if (!hub) throw new Error(`The MCP server ${server} is still starting.`);
      return scrub(await hub.readResource(server, uri, signal));
    },
    close() {
      closed = true;
      // Runtime.close() starts it; the CLI awaits the same promise before exiting.
      closing ??= loading.catch(() => {}).then(() => hub?.close());
      return closing;
    },
  };
}

/**
 * What of the servers' settings is a key: every header value (and the token of `Bearer …`), every
 * environment value named like a credential, and the password of any URL.
 */
function serverSecrets(servers: readonly McpServerConfig[]): string[] {
  const found: string[] = [];
  for (const server of servers) {
    if ('headers' in server) {
      for (const value of Object.values(server.headers ?? {})) found.push(value, value.replace(/^\s*(?:Bearer|Basic|Token)\s+/i, ''));
    }
    if ('url' in server) found.push(urlPassword(server.url) ?? '');
    if ('env' in server) {
      for (const [name, value] of Object.entries(server.env ?? {})) found.push(isCredentialName(name) ? value : '', urlPassword(value) ?? '');
    }
  }
  return [...new Set(found.filter((value) => value.trim().length >= 8))];
}
