/**
 * One entry of `mcpServers`, in the shape Claude Desktop, Cursor and Gemini CLI share:
 * `{ command, args, env, cwd }` starts a process spoken to over stdio; `{ url, headers }` is a
 * Streamable HTTP server (with a fallback to the older HTTP+SSE transport).
 */
interface ServerCommon {
  /** Its tools run without asking. Only a trusted (user) settings file may say so. */
  trust?: boolean;
  /** Seconds each tool call may take; the general tool timeout when absent. */
  timeout?: number;
  /** Tools of this server offered to the model at most (the first ones it lists); 100 when absent. */
  maxTools?: number;
  /** Bytes of tool definitions (name, description, schema) offered at most; 100,000 when absent. */
  maxToolSchemaBytes?: number;
}

export interface StdioServerConfig extends ServerCommon {
  command: string;
  args?: string[];
  /** Added to a small inherited environment (PATH, HOME, …): keys in Sylvan's environment are not passed on. */
  env?: Record<string, string>;
  /** Relative to the workspace. */
  cwd?: string;
  /**
   * Runs in the command sandbox (`true`, or `{ "network": true }` to let it reach the network). Absent,
   * it runs in the lighter server fence (its own PID namespace, Sylvan's folders hidden); `false`, as it is.
   */
  sandbox?: boolean | { network?: boolean };
}

export interface HttpServerConfig extends ServerCommon {
  url: string;
  headers?: Record<string, string>;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export const isStdioServer = (server: McpServerConfig): server is StdioServerConfig => 'command' in server;
