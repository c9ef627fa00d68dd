import type { Tool, ToolSet } from 'ai';

export type Execute = NonNullable<Tool['execute']>;

/** The tools with `wrap(name, execute)` in place of each `execute`; a tool without one is kept as it is. */
export function wrapExecutes<TOOLS extends ToolSet>(tools: TOOLS, wrap: (name: string, execute: Execute) => Execute): TOOLS {
  const wrapped: Record<string, Tool> = {};
  for (const [name, original] of Object.entries(tools) as [string, Tool][]) {
    const execute = original.execute;
    wrapped[name] = execute ? ({ ...original, execute: wrap(name, execute) } as Tool) : original;
  }
  return wrapped as TOOLS;
}
