import type { Tool } from 'ai';
import type { ToolSpec } from '../tools/tool-spec.ts';
import { listResourcesSpec, readResourceSpec } from './resource-tool-specs.ts';
import { McpConnection, type ServerStatus } from './mcp-connection.ts';
import type { PromptTurn } from './prompt-messages.ts';
import type { McpPrompt } from './prompt-list.ts';
import type { ResourceText } from './resource-contents.ts';
import type { McpResource } from './resource-list.ts';
import { createResourceTools } from './resource-tools.ts';
import type { McpServerConfig } from '../config/settings/mcp-server-config.ts';
import type { CommandSandbox } from '../sandbox/command-sandbox.ts';
import { endWithProcess } from './servers-end-with-process.ts';

export interface McpHubOptions {
  servers: Record<string, McpServerConfig>;
  workspaceRoot: string;
  startTimeoutMs: number;
  callTimeoutMs: number;
  /** Offered tool names approved ahead by the settings (`mcp:<server>__<tool>` keys, without `mcp:`). */
  approvedTools?: readonly string[];
  /** The session's sandbox, for stdio servers whose settings ask for it. */
  sandbox?: CommandSandbox;
  /** Called when a warning is added (a server failed or stopped), so it can be shown when it happens. */
  onWarning?: () => void;
}

/** What `/mcp` shows of one server. */
export interface ServerSummary {
  name: string;
  status: ServerStatus;
  toolCount: number;
  /** Tools the server listed, when its bounds left some out. */
  listedToolCount?: number;
  /** The names as the server lists them (raw: sanitise before showing). */
  toolNames: string[];
  prompts: McpPrompt[];
  resources: McpResource[];
  /** Prompts or resources the server listed, when the bounds kept fewer. */
  listedPromptCount?: number;
  listedResourceCount?: number;
  /** Why its prompts or resources could not be listed. */
  listProblems: string[];
  /**
   * Its prompts and resources were listed (or failed to be) since it became ready: a server is ready
   * with its tools, before its lists come, so until then an empty list says nothing.
   */
  listed: boolean;
  transport: 'stdio' | 'http';
  trusted: boolean;
  lastError?: string;
  /** The last lines it wrote on stderr (raw: sanitise before showing). */
  stderr: string[];
}

/**
 * Every configured MCP server, started in the background: `tools()` is whatever is ready now, so
 * the tool set grows between turns as servers come up, and shrinks when one is lost. A lost
 * server leaves one warning in `takeWarnings()`. All server processes end with Sylvan.
 */
export class McpHub {
  private readonly connections: McpConnection[];
  private readonly warnings: string[] = [];
  private readonly onWarning: (() => void) | undefined;
  private readonly started: Promise<void>;
  private readonly offeredBy = new Map<string, McpConnection>();
  private readonly approved: Set<string>;
  /** Stops ending this hub's servers with the process (they are closed by then). */
  private readonly endsWithProcess: () => void = () => {};

  constructor(options: McpHubOptions) {
    this.onWarning = options.onWarning;
    const taken = new Set<string>();
    this.approved = new Set(options.approvedTools ?? []);
    this.connections = Object.entries(options.servers).map(
      ([name, config]) =>
        new McpConnection({
          name,
          config,
          workspaceRoot: options.workspaceRoot,
          startTimeoutMs: options.startTimeoutMs,
          callTimeoutMs: options.callTimeoutMs,
          takenNames: taken,
          sandbox: options.sandbox,
          onLost: (connection, reason) =>
            this.warn(`(MCP server ${connection.name} ${connection.status === 'failed' ? 'failed' : 'stopped'}: ${reason}; its tools are not available. /mcp shows more)`),
          onNotice: (line) => this.warn(line),
        }),
    );
    if (this.connections.length > 0) {
      this.endsWithProcess = endWithProcess(() => {
        for (const connection of this.connections) connection.killNow();
      });
    }
    this.started = Promise.all(this.connections.map((connection) => connection.start())).then(() => {});
  }

  /** Resolves when every server is ready or lost, or after `timeoutMs`, whichever is first. */
  async settled(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.started, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** The tools of every ready server, by offered name, and the resource tools while a ready server offers resources. */
  tools(): Record<string, Tool> {
    const all: Record<string, Tool> = {};
    this.offeredBy.clear();
    for (const connection of this.connections) {
      for (const [name, tool] of Object.entries(connection.tools)) {
        all[name] = tool;
        this.offeredBy.set(name, connection);
      }
    }
    if (this.resourceServers().length > 0) Object.assign(all, this.resourceTools);
    return all;
  }

  private readonly resourceTools = createResourceTools(this);

  private connectionNamed(server: string): McpConnection {
    const connection = this.connections.find((candidate) => candidate.name === server);
    if (!connection) throw new Error(`No MCP server is named ${server}.`);
    return connection;
  }

  /** The prompts of the ready servers, each with its server's name. */
  prompts(): { server: string; prompt: McpPrompt }[] {
    return this.connections
      .filter((connection) => connection.status === 'ready')
      .flatMap((connection) => connection.catalogue.prompts.map((prompt) => ({ server: connection.name, prompt })));
  }

  /** The ready servers that offer resources, with their (bounded, cached) lists. */
  resourceServers(): { name: string; resources: readonly McpResource[]; listedCount?: number }[] {
    return this.connections
      .filter((connection) => connection.status === 'ready' && connection.catalogue.offersResources)
      .map((connection) => ({ name: connection.name, resources: connection.catalogue.resources, listedCount: connection.catalogue.listedResourceCount }));
  }

  /** Runs a prompt (`prompts/get`); throws an error saying what happened. */
  getPrompt(server: string, name: string, args: Record<string, string>, signal?: AbortSignal): Promise<PromptTurn> {
    return this.connectionNamed(server).getPrompt(name, args, signal);
  }

  /** Reads a resource (`resources/read`); throws an error saying what happened. */
  readResource(server: string, uri: string, signal?: AbortSignal): Promise<ResourceText> {
    return this.connectionNamed(server).readResource(uri, signal);
  }

  private warn(line: string): void {
    this.warnings.push(line);
    this.onWarning?.();
  }

  /** Warnings since the last call, each one line. */
  takeWarnings(): string[] {
    return this.warnings.splice(0);
  }

  summaries(): ServerSummary[] {
    return this.connections.map((connection) => ({
      name: connection.name,
      status: connection.status,
      toolCount: Object.keys(connection.tools).length,
      listedToolCount: connection.listedToolCount,
      toolNames: connection.toolNames,
      prompts: connection.catalogue.prompts,
      resources: connection.catalogue.resources,
      listedPromptCount: connection.catalogue.listedPromptCount,
      listedResourceCount: connection.catalogue.listedResourceCount,
      listProblems: Object.values(connection.catalogue.problems).filter((problem): problem is string => problem !== undefined),
      listed: connection.catalogue.listed,
      transport: 'command' in connection.config ? 'stdio' : 'http',
      trusted: connection.config.trust === true,
      lastError: connection.lastError,
      stderr: connection.stderr.lastLines(5),
    }));
  }

  /** Process ids of the running stdio servers. */
  pids(): number[] {
    return this.connections.flatMap((connection) => (connection.pid === undefined ? [] : [connection.pid]));
  }

  /**
   * What an MCP tool is: nothing marks whether it writes, so it is of kind `other` (refused in plan
   * mode) and asked about unless its server is trusted or the settings approved the tool. An
   * "always" answer covers that one tool (`mcp:<server>__<tool>`): a server's other tools may do
   * very different things. The resource tools only read. Undefined for a name no server offers.
   */
  toolSpec(toolName: string): ToolSpec | undefined {
    if (toolName === listResourcesSpec.name) return listResourcesSpec;
    if (toolName === readResourceSpec.name) return readResourceSpec;
    const connection = this.offeredBy.get(toolName);
    if (!connection) return undefined;
    if (connection.config.trust === true || this.approved.has(toolName)) return { name: toolName, kind: 'other', trusted: true };
    return { name: toolName, kind: 'other', scope: () => ({ kind: 'mcp', key: `mcp:${toolName}`, alwaysLabel: `${toolName} this session` }) };
  }

  async close(): Promise<void> {
    this.endsWithProcess();
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}
