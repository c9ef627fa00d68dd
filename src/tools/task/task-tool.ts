import { tool, type ModelMessage } from 'ai';
import { z } from 'zod';

/** What the model asks of a subagent. */
export interface TaskRequest {
  description: string;
  prompt: string;
  subagent_type: string;
  fork?: boolean;
}

/** Where the call stands: its id (the subagent's events name it), the interrupt, and what the parent's step sent. */
export interface TaskCall {
  toolCallId: string;
  abortSignal: AbortSignal;
  messages: ModelMessage[];
}

/** Runs the subagent to its end; resolves with its bounded answer, rejects with words for the model. */
export type RunTask = (request: TaskRequest, call: TaskCall) => Promise<string>;

/**
 * The `task` tool: the model hands a piece of work to a subagent and reads back its final answer.
 * `agents` lists the agents on offer (name: description), for the tool's description.
 */
export function createTaskTool(agents: readonly { name: string; description: string }[], run: RunTask) {
  const names = agents.map((agent) => agent.name);
  return tool({
    description: [
      'Start a subagent: another agent, with a context of its own, does one piece of work and returns its final answer as this tool\'s result. Several task calls in one step run at the same time.',
      'The subagent sees only your prompt (unless fork is true), so write it complete: what to do, where to look, what to answer with.',
      'Agents:',
      ...agents.map((agent) => `- ${agent.name}: ${agent.description}`),
    ].join('\n'),
    inputSchema: z.object({
      description: z.string().min(1).max(120).describe('A few words saying what the subagent does, shown to the user.'),
      prompt: z.string().min(1).max(40_000).describe('The whole task for the subagent.'),
      subagent_type: z.string().min(1).describe(`The agent to use: ${names.join(', ')}.`),
      fork: z
        .boolean()
        .optional()
        .describe('true: the subagent starts from this conversation as it is (it knows everything you know), instead of from your prompt alone.'),
    }),
    execute: (input, options) =>
      run(input, { toolCallId: options.toolCallId, abortSignal: options.abortSignal ?? new AbortController().signal, messages: options.messages }),
  });
}
