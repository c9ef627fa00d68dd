import { asSchema, type ToolSet } from 'ai';

/** Declared for the model only: the SDK parses and validates calls, the loop runs them (see `approvalRound`). */
export function declaredOnly(tools: ToolSet): ToolSet {
  const declared: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    let offered = declarations.get(tool);
    if (!offered) {
      // The schema wrapped once: the SDK converts a zod schema to JSON Schema on every request it
      // is given raw, and keeps the conversion when given it wrapped (its getter remembers).
      offered = { ...tool, inputSchema: asSchema(tool.inputSchema), execute: undefined } as ToolSet[string];
      declarations.set(tool, offered);
    }
    declared[name] = offered;
  }
  return declared;
}

/** Each tool's declaration, kept as long as the tool is: one JSON Schema conversion per tool a session. */
const declarations = new WeakMap<ToolSet[string], ToolSet[string]>();
