import { z } from 'zod';
import { ConfigError } from '../../shared/config-error.ts';
import type { McpServerConfig } from './mcp-server-config.ts';
import type { SettingsLayer } from './load-settings.ts';

const common = {
  trust: z.boolean().optional(),
  timeout: z.number().positive().optional(),
  maxTools: z.number().int().min(1).max(100_000).optional(),
  maxToolSchemaBytes: z.number().int().min(1_000).max(100_000_000).optional(),
  /** Claude Desktop and Cursor files name the transport; the fields already say it. */
  type: z.enum(['stdio', 'http', 'sse', 'streamable-http']).optional(),
};
const stdioServer = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  sandbox: z.union([z.boolean(), z.strictObject({ network: z.boolean().optional() })]).optional(),
  ...common,
});
const httpServer = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
  ...common,
});
const permissions = z.strictObject({
  /** Approval scope keys answered "always" ahead: `command:npm test`, `domain:example.com`, `mcp:server__tool`. */
  allow: z.array(z.string().regex(/^[a-z]+:.+|^[a-z_]+$/, 'must be an approval key like "command:npm test" or "mcp:server__tool"')).optional(),
  secretPatterns: z.array(z.string()).optional(),
});

/** What the settings add besides the options, validated. */
export interface CheckedSettings {
  mcpServers: Record<string, McpServerConfig>;
  /** Approval scope keys approved ahead by the user's settings. */
  approvedAhead: string[];
  /** One line each: servers a project file asked for, which are not started. */
  notes: string[];
}

const pathOf = (path: readonly PropertyKey[]): string => path.map(String).join('.');

function parse<T>(schema: z.ZodType<T>, value: unknown, file: string, at: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const key = [at, issue ? pathOf(issue.path) : ''].filter(Boolean).join('.');
  throw new ConfigError(`${file}: ${key}: ${issue?.message ?? 'invalid'}.`);
}

/**
 * The zod pass over `permissions` and `mcpServers`, run after the prompt (zod is heavy). A project
 * file's servers are checked but never started: starting one runs a program (or reaches a server)
 * that came with the folder, before anyone was asked — the user copies it into their own file to
 * use it. A project file may not approve anything ahead either. Throws `ConfigError` naming file
 * and key path.
 */
export function checkSettings(layers: readonly SettingsLayer[]): CheckedSettings {
  const mcpServers: Record<string, McpServerConfig> = {};
  const approvedAhead: string[] = [];
  const notes: string[] = [];
  for (const layer of layers) {
    const checked = parse(permissions.optional(), layer.values.permissions, layer.file, 'permissions');
    if (checked?.allow?.length) {
      if (!layer.trusted) {
        throw new ConfigError(`${layer.file}: permissions.allow: a project settings file cannot approve anything ahead; put it in $SYLVAN_HOME/settings.json.`);
      }
      approvedAhead.push(...checked.allow);
    }
    const servers = parse(z.record(z.string(), z.unknown()).optional(), layer.values.mcpServers, layer.file, 'mcpServers') ?? {};
    for (const [name, raw] of Object.entries(servers)) {
      const at = `mcpServers.${name}`;
      const fields = typeof raw === 'object' && raw !== null ? raw : {};
      let server: McpServerConfig;
      if ('command' in fields) server = parse(stdioServer, raw, layer.file, at);
      else if ('url' in fields) server = parse(httpServer, raw, layer.file, at);
      else throw new ConfigError(`${layer.file}: ${at}: needs "command" (a server started over stdio) or "url" (Streamable HTTP).`);
      if (server.trust && !layer.trusted) {
        throw new ConfigError(`${layer.file}: ${at}.trust: a project settings file cannot trust a server (that turns approval off); put it in $SYLVAN_HOME/settings.json.`);
      }
      if (!layer.trusted) {
        notes.push(
          `(MCP server ${name} in ${layer.file} was not started: a folder's settings cannot start programs or reach servers; copy it into $SYLVAN_HOME/settings.json to use it)`,
        );
        continue;
      }
      mcpServers[name] = server;
    }
  }
  return { mcpServers, approvedAhead, notes };
}
