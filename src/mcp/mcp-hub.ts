import type { Tool } from 'ai';
import type { ApprovalScopeResolver } from '../tools/approval-scope.ts';
import { McpConnection, type ServerStatus } from './mcp-connection.ts';
import type { McpServerConfig } from './server-config.ts';
import type { CommandSandbox } from '../sandbox/command-sandbox.ts';

export interface McpHubOptions {
  servers: Record<string, McpServerConfig>;
  workspaceRoot: string;
  startTimeoutMs: number;
  callTimeoutMs: number;
  /** Offered tool names approved ahead by the settings (`mcp:<server>__<tool>` keys, without `mcp:`). */
  approvedTools?: readonly string[];
  /** The session's sandbox, for stdio servers whose settings ask for it. */
  sandbox?: CommandSandbox;
}

/** What `/mcp` shows of one server. */
export interface ServerSummary {
  name: string;
  status: ServerStatus;
  toolCount: number;
  /** Tools the server listed, when its bounds left some out. */
  listedToolCount?: number;
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
  private readonly started: Promise<void>;
  private readonly offeredBy = new Map<string, McpConnection>();
  private readonly approved: Set<string>;
  private readonly onExit = () => {
    for (const connection of this.connections) connection.killNow();
  };
  private readonly onSignal = (signal: NodeJS.Signals) => {
    this.onExit();
    process.exit(signal === 'SIGHUP' ? 129 : 143);
  };

  constructor(options: McpHubOptions) {
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
            this.warnings.push(`(MCP server ${connection.name} ${connection.status === 'failed' ? 'failed' : 'stopped'}: ${reason}; its tools are not available. /mcp shows more)`),
          onNotice: (line) => this.warnings.push(line),
        }),
    );
    if (this.connections.length > 0) {
      process.once('exit', this.onExit);
      process.once('SIGTERM', this.onSignal);
      process.once('SIGHUP', this.onSignal);
    }
    this.started = Promise.all(this.connections.map((connection) => connection.start())).then(() => {});
  }

  /** Resolves when every server is ready or lost, or after `timeoutMs`, whichever is first. */
  async settled(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.started, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** The tools of every ready server, by offered name. */
  tools(): Record<string, Tool> {
    const all: Record<string, Tool> = {};
    this.offeredBy.clear();
    for (const connection of this.connections) {
      for (const [name, tool] of Object.entries(connection.tools)) {
        all[name] = tool;
        this.offeredBy.set(name, connection);
      }
    }
    return all;
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
   * MCP tools need approval unless their server is trusted or the settings approved the tool. An
   * "always" answer covers that one tool (`mcp:<server>__<tool>`): a server's other tools may do
   * very different things.
   */
  readonly approvalScopes: ApprovalScopeResolver = (toolName) => {
    const connection = this.offeredBy.get(toolName);
    if (!connection || connection.config.trust === true || this.approved.has(toolName)) return undefined;
    return { kind: 'mcp', key: `mcp:${toolName}`, alwaysLabel: `${toolName} this session` };
  };

  async close(): Promise<void> {
    process.off('SIGTERM', this.onSignal);
    process.off('SIGHUP', this.onSignal);
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}
