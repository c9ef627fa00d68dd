import { countOf, digits } from '../shared/text/count-text.ts';

/** Tools one server may offer the model unless its `mcpServers` entry says `maxTools`. */
export const DEFAULT_MAX_TOOLS = 100;
/** Bytes of tool definitions (name, description, JSON Schema) one server may offer unless it says `maxToolSchemaBytes`. */
export const DEFAULT_MAX_TOOL_SCHEMA_BYTES = 100_000;

export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface BoundedToolList<T extends ToolDefinition> {
  kept: T[];
  keptBytes: number;
  /** Every tool the server listed, and the bytes of all their definitions. */
  listedCount: number;
  listedBytes: number;
}

const definitionBytes = (definition: ToolDefinition): number =>
  Buffer.byteLength(JSON.stringify({ name: definition.name, description: definition.description, inputSchema: definition.inputSchema }));

/**
 * The tools of a server's list that go to the model: in the server's order, at most `maxTools`,
 * and only those whose definitions fit in `maxBytes` together (one huge schema is left out, the
 * smaller ones after it still fit). Every one of them is in every request: 10,011 tools were 3.5 MB.
 */
export function boundToolList<T extends ToolDefinition>(tools: readonly T[], bounds: { maxTools: number; maxBytes: number }): BoundedToolList<T> {
  const kept: T[] = [];
  let keptBytes = 0;
  let listedBytes = 0;
  for (const definition of tools) {
    const bytes = definitionBytes(definition);
    listedBytes += bytes;
    if (kept.length < bounds.maxTools && keptBytes + bytes <= bounds.maxBytes) {
      kept.push(definition);
      keptBytes += bytes;
    }
  }
  return { kept, keptBytes, listedCount: tools.length, listedBytes };
}

const kilobytes = (bytes: number): string => `${digits(Math.max(1, Math.round(bytes / 1000)))} kB`;

/** The one line for the user when a server's tools were left out, or undefined when all were offered. */
export function leftOutLine(server: string, list: BoundedToolList<ToolDefinition>): string | undefined {
  if (list.kept.length === list.listedCount) return undefined;
  return (
    `(MCP server ${server} offers ${countOf(list.listedCount, 'tool')} (${kilobytes(list.listedBytes)} of definitions); ` +
    `only the first ${digits(list.kept.length)} (${kilobytes(list.keptBytes)}) go to the model. ` +
    `"maxTools" and "maxToolSchemaBytes" in its mcpServers entry raise the bound)`
  );
}
