import { resolve } from 'node:path';
import { jsonSchema, tool, type Tool } from 'ai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { resultText } from './call-result.ts';
import { promptTurn, type PromptTurn } from './prompt-messages.ts';
import { resourceText, type ResourceText } from './resource-contents.ts';
import { ServerCatalogue } from './server-catalogue.ts';
import { isStdioServer, type McpServerConfig } from '../config/settings/mcp-server-config.ts';
import { StderrTail } from './stderr-tail.ts';
import { StdioTransport, TransportFailure } from './stdio-transport.ts';
import { offeredToolName } from './tool-names.ts';
import { boundToolList, DEFAULT_MAX_TOOL_SCHEMA_BYTES, DEFAULT_MAX_TOOLS, leftOutLine } from './tool-list-bounds.ts';
import type { CommandSandbox } from '../sandbox/command-sandbox.ts';

export type ServerStatus = 'starting' | 'ready' | 'failed' | 'exited' | 'closed';

export interface ConnectionOptions {
  name: string;
  config: McpServerConfig;
  workspaceRoot: string;
  /** Bounds the start: spawn or connect, handshake and the tool list. */
  startTimeoutMs: number;
  /** Bounds each tool call unless the server sets its own `timeout`. */
  callTimeoutMs: number;
  /** Names already offered to the model; this server's names join it. */
  takenNames: Set<string>;
  /** One line for the user when the server is lost (failed to start, exited, misbehaved). */
  onLost: (connection: McpConnection, reason: string) => void;
  /** One line for the user about a ready server (its tool list was cut to the bounds). */
  onNotice: (line: string) => void;
  /** The session's sandbox, for servers whose settings ask for it. */
  sandbox?: CommandSandbox;
}

const seconds = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

/** A start that ran out of time, and how to give it more (a first `npx -y` downloads the server first). */
const startTimedOut = (ms: number): string =>
  `it timed out after ${seconds(ms)} starting (a first npx -y run may still be downloading it); raise the limit with "mcpStartTimeout": 60 in settings.json or SYLVAN_MCP_START_TIMEOUT=60`;

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** One configured MCP server: its process or connection, its tools, its status and its last error. */
export class McpConnection {
  status: ServerStatus = 'starting';
  lastError: string | undefined;
  readonly stderr = new StderrTail();
  /** The tools as offered to the model, by offered name; empty unless ready. */
  tools: Record<string, Tool> = {};
  /** How many tools the server listed, when more than were offered (the bounds left some out). */
  listedToolCount: number | undefined;
  /** The tools' own names (as the server lists them), for `/mcp`. */
  toolNames: string[] = [];
  /** Its prompts and resources, once ready. */
  readonly catalogue = new ServerCatalogue();
  private client: Client | undefined;
  private transport: Transport | undefined;

  constructor(private readonly options: ConnectionOptions) {}

  get name(): string {
    return this.options.name;
  }

  get config(): McpServerConfig {
    return this.options.config;
  }

  /** The stdio server's process id, while it runs. */
  get pid(): number | undefined {
    return this.transport instanceof StdioTransport ? this.transport.pid : undefined;
  }

  /** Connects and lists the tools; never throws (a failure marks the server failed and reports it once). */
  async start(): Promise<void> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), this.options.startTimeoutMs);
    try {
      await Promise.race([
        this.connectAndList(),
        new Promise((_, reject) =>
          timer.signal.addEventListener('abort', () => reject(new Error(startTimedOut(this.options.startTimeoutMs)))),
        ),
      ]);
      if (this.status === 'starting') this.status = 'ready';
    } catch (error) {
      if (this.status === 'starting') this.lose('failed', this.describeStartError(error));
    } finally {
      clearTimeout(timeout);
    }
    // After the start, not in it: a server whose prompts/list hangs keeps its tools.
    if (this.status === 'ready' && this.client) await this.catalogue.load(this.client, this.options.startTimeoutMs);
  }

  /** Node's fetch says only "fetch failed"; the cause (ECONNREFUSED, ENOTFOUND) is what helps. */
  private describeStartError(error: unknown): string {
    const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
    if ('url' in this.config && /fetch failed/.test(firstLine(error))) {
      const url = new URL(this.config.url);
      return `could not reach ${url.origin}${url.pathname}${typeof cause?.code === 'string' ? ` (${cause.code})` : ''}`;
    }
    return firstLine(error);
  }

  private async connectAndList(): Promise<void> {
    const config = this.options.config;
    if (isStdioServer(config)) {
      const stdio = () => new StdioTransport({
        command: config.command,
        args: config.args ?? [],
        env: config.env ?? {},
        cwd: resolve(this.options.workspaceRoot, config.cwd ?? '.'),
        stderr: this.stderr,
        // Every server is fenced at least from Sylvan's environment in /proc, unless its (user) settings say "sandbox": false.
        sandbox:
          this.options.sandbox && config.sandbox !== false
            ? { fence: this.options.sandbox, full: config.sandbox !== undefined, network: typeof config.sandbox === 'object' && config.sandbox.network === true }
            : undefined,
      });
      const first = stdio();
      try {
        await this.connect(first);
      } catch (error) {
        // Once: a path the sandbox hides vanished before bubblewrap mounted over it, so the server never ran.
        if (!first.endedOnVanishedMask) throw error;
        await this.connect(stdio());
      }
    } else {
      const url = new URL(config.url);
      const requestInit = { headers: config.headers ?? {} };
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      try {
        await this.connect(new StreamableHTTPClientTransport(url, { requestInit }));
      } catch (error) {
        if (this.status !== 'starting') throw error;
        // Servers of the 2024-11-05 protocol speak HTTP+SSE only; the spec's advice is to try it next.
        const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
        const eventSourceInit = { fetch: (input: string | URL, init?: RequestInit) => fetch(input, { ...init, headers: { ...config.headers, ...init?.headers } }) };
        // When SSE fails too, the Streamable HTTP error is the one that explains (a refused connection, a 401).
        await this.connect(new SSEClientTransport(url, { requestInit, eventSourceInit })).catch(() => {
          throw error;
        });
      }
    }
    if (!this.client) return;
    const listed = await this.client.listTools(undefined, { timeout: this.options.startTimeoutMs });
    const bounded = boundToolList(listed.tools, {
      maxTools: config.maxTools ?? DEFAULT_MAX_TOOLS,
      maxBytes: config.maxToolSchemaBytes ?? DEFAULT_MAX_TOOL_SCHEMA_BYTES,
    });
    const leftOut = leftOutLine(this.name, bounded);
    if (leftOut) this.options.onNotice(leftOut);
    this.listedToolCount = leftOut ? bounded.listedCount : undefined;
    this.toolNames = bounded.kept.map((definition) => definition.name);
    const tools: Record<string, Tool> = {};
    for (const definition of bounded.kept) {
      tools[offeredToolName(this.name, definition.name, this.options.takenNames)] = this.toTool(definition);
    }
    this.tools = tools;
  }

  private async connect(transport: Transport): Promise<void> {
    const relist = (list: 'prompts' | 'resources') => () => {
      if (this.client !== client || this.status !== 'ready') return;
      void (list === 'prompts' ? this.catalogue.loadPrompts(client, this.options.startTimeoutMs) : this.catalogue.loadResources(client, this.options.startTimeoutMs));
    };
    const client = new Client(
      { name: 'sylvan', version: '0.1.0' },
      {
        capabilities: {},
        // Our own listing, bounded and paged, rather than the SDK's refresh of the first page.
        listChanged: { prompts: { autoRefresh: false, onChanged: relist('prompts') }, resources: { autoRefresh: false, onChanged: relist('resources') } },
      },
    );
    client.onerror = (error) => {
      // Closing a server that failed to start errs too ("Failed to send cancellation…"): the reason it failed stays.
      if (this.status === 'failed' || this.status === 'exited' || this.status === 'closed') return;
      this.lastError = firstLine(error);
      // The transport ended the server (garbage, or a message too large): starting or ready, it is lost, with that reason.
      if (error instanceof TransportFailure && (this.status === 'starting' || this.status === 'ready')) this.lose('failed', this.lastError);
    };
    client.onclose = () => {
      if (this.client !== client) return;
      if (this.status === 'ready') this.lose('exited', this.lastError ? `the connection closed (${this.lastError})` : 'its process ended or the connection closed');
    };
    this.transport = transport;
    this.client = client;
    try {
      await client.connect(transport, { timeout: this.options.startTimeoutMs });
    } catch (error) {
      this.client = undefined;
      await transport.close().catch(() => {});
      throw error;
    }
  }

  private toTool(definition: { name: string; description?: string; inputSchema: Record<string, unknown> }): Tool {
    const timeoutMs = this.requestTimeoutMs;
    return tool({
      description: definition.description ?? `${definition.name} (from the MCP server ${this.name})`,
      inputSchema: jsonSchema({ type: 'object', ...definition.inputSchema } as Parameters<typeof jsonSchema>[0]),
      execute: async (input, { abortSignal }) => {
        const client = this.readyClient(`${definition.name} cannot be called`);
        try {
          // An abort (Ctrl-C, the turn's tool timeout) makes the SDK send notifications/cancelled.
          const result = await client.callTool({ name: definition.name, arguments: input as Record<string, unknown> }, undefined, {
            signal: abortSignal,
            timeout: timeoutMs,
          });
          return resultText(result);
        } catch (error) {
          throw this.requestFailure(error, definition.name, timeoutMs, abortSignal);
        }
      },
    });
  }

  private get requestTimeoutMs(): number {
    return this.options.config.timeout !== undefined ? this.options.config.timeout * 1000 : this.options.callTimeoutMs;
  }

  /** `prompts/get`: the prompt's messages as the user's turn. Throws an error that says what happened. */
  async getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<PromptTurn> {
    const client = this.readyClient(`its prompt ${name} cannot be run`);
    try {
      return promptTurn(await client.getPrompt({ name, arguments: args }, { signal, timeout: this.requestTimeoutMs }));
    } catch (error) {
      throw this.requestFailure(error, `the prompt ${name}`, this.requestTimeoutMs, signal);
    }
  }

  /** `resources/read`: the resource as text (bounded), binary parts named. Throws an error that says what happened. */
  async readResource(uri: string, signal?: AbortSignal): Promise<ResourceText> {
    const client = this.readyClient(`${uri} cannot be read`);
    try {
      return resourceText(await client.readResource({ uri }, { signal, timeout: this.requestTimeoutMs }));
    } catch (error) {
      throw this.requestFailure(error, `reading ${uri}`, this.requestTimeoutMs, signal);
    }
  }

  private readyClient(consequence: string): Client {
    if (!this.client || this.status !== 'ready') {
      const state = this.status === 'starting' ? 'is still starting' : 'is not running any more';
      throw new Error(`The MCP server ${this.name} ${state}, so ${consequence}.`);
    }
    return this.client;
  }

  /** One line for a request that failed: a timeout, the server gone, or the server's own error without the SDK's doubled prefix. */
  private requestFailure(error: unknown, what: string, timeoutMs: number, signal?: AbortSignal): Error {
    if (signal?.aborted) return error instanceof Error ? error : new Error(String(error));
    const message = firstLine(error);
    if (/timed out/i.test(message)) return new Error(`${what} on the MCP server ${this.name} did not answer within ${seconds(timeoutMs)}; it was cancelled.`);
    if (/Connection closed/i.test(message)) return new Error(`The MCP server ${this.name} stopped during the call; ${what} has no result.`);
    if (error instanceof Error && !/^MCP error/.test(message)) return error;
    return new Error(message.replace(/^(?:MCP error -?\d+: )+/, '') || `${what} failed on the MCP server ${this.name}.`);
  }

  private lose(status: 'failed' | 'exited', reason: string): void {
    this.status = status;
    this.lastError = reason;
    this.tools = {};
    this.catalogue.clear();
    const client = this.client;
    this.client = undefined;
    void client?.close().catch(() => {});
    void this.transport?.close().catch(() => {});
    this.options.onLost(this, reason);
  }

  /** Ends the server (its process, or its HTTP session). */
  async close(): Promise<void> {
    if (this.status === 'closed') return;
    this.status = 'closed';
    this.tools = {};
    this.catalogue.clear();
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
    await this.transport?.close().catch(() => {});
  }

  /** Synchronous last resort from a process 'exit' handler. */
  killNow(): void {
    if (this.transport instanceof StdioTransport) this.transport.kill('SIGKILL');
  }
}
