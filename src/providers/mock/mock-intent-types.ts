/** A tool call the mock wants to make: the tool's name and its input object. */
export type PlannedToolCall = { toolName: string; input: Record<string, unknown> };

/** The tools offered in this call: name → the property names of its input schema. */
export type AvailableTools = ReadonlyMap<string, ReadonlySet<string>>;
