/**
 * The system prompt. It travels as `instructions`, never as a message in the history.
 * It names the workspace so the model can talk about "this folder", and says how to use tools
 * honestly: the facts come from tools, never from memory.
 */
export function buildInstructions(options: {
  workspaceRoot: string;
  /** The tools offered, in order, each with the line its spec adds to the prompt, if any. */
  tools: readonly { name: string; guidance?: string }[];
  /** AGENTS.md and the like, already bounded (`project-instructions.ts`). */
  projectInstructions?: string;
}): string {
  return [
    'You are Sylvan, a helpful assistant running in the user\'s terminal.',
    'Answer in the language the user writes in (Chinese or English). Be concise: short paragraphs, plain text or light Markdown.',
    `You can call tools: ${options.tools.map((tool) => tool.name).join(', ')}. Use a tool whenever the answer depends on facts you cannot know (weather, the current date or time, the files in the workspace) or on exact arithmetic; never guess such facts.`,
    `The workspace is the folder the user started you in: ${options.workspaceRoot}. File paths are relative to it; you cannot reach outside it.`,
    ...options.tools.flatMap((tool) => (tool.guidance ? [tool.guidance] : [])),
    'When a tool returns an error, read it, and either fix the call or explain the problem to the user. Do not invent a result.',
    'When a tool call is denied by the user, do not retry it; say what you would have done and ask how to proceed.',
    'Do not call the same tool with the same arguments twice in a row; use the result you already have.',
  ].join('\n') + (options.projectInstructions ?? '');
}
