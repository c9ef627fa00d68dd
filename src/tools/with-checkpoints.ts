import type { Tool, ToolSet } from 'ai';
import { resolveWorkspaceTarget } from '../shared/workspace-path.ts';
import type { ToolSpecLookup } from './tool-spec.ts';


/** Called when the change has run (or failed): the checkpoint is finished with what is on disk then. */
export type FinishRecording = () => Promise<void>;

/** What the wrapped tools call; `SessionCheckpoints` is one (through a getter, since /clear starts a new session). */
export interface CheckpointRecorder {
  beforeFileChange(relativePath: string, toolName: string): Promise<FinishRecording>;
  beforeCommand(toolName: string): Promise<FinishRecording>;
}

/**
 * Wraps the `execute` of every tool whose spec declares a checkpoint so that it is recorded
 * inside the call, just before the change (an approved call may run at the start of the next
 * step), and finished when the call itself has finished (a stopped command included). Other tools
 * pass through untouched; MCP tools carry no marking of whether they write, so none declares one.
 */
export function withCheckpoints<TOOLS extends ToolSet>(
  tools: TOOLS,
  recorder: () => CheckpointRecorder | undefined,
  workspace: { workspaceRoot: string; secretPatterns: readonly string[] },
  specOf: ToolSpecLookup,
): TOOLS {
  const wrapped: Record<string, Tool> = {};
  for (const [name, original] of Object.entries(tools) as [string, Tool][]) {
    const execute = original.execute;
    const checkpoint = specOf(name)?.checkpoint;
    if (!execute || !checkpoint) {
      wrapped[name] = original;
      continue;
    }
    wrapped[name] = {
      ...original,
      execute: async (input: unknown, options: Parameters<NonNullable<Tool['execute']>>[1]) => {
        const finish = await start(name, checkpoint, input);
        try {
          return await execute(input, options);
        } finally {
          await finish();
        }
      },
    } as Tool;
  }
  return wrapped as TOOLS;

  async function start(name: string, checkpoint: 'file' | 'command', input: unknown): Promise<FinishRecording> {
    const current = recorder();
    if (!current) return async () => {};
    if (checkpoint === 'command') return current.beforeCommand(name);
    const userPath = (input as { path?: unknown } | undefined)?.path;
    if (typeof userPath !== 'string') return async () => {};
    const target = await resolveWorkspaceTarget(workspace.workspaceRoot, userPath, { forWrite: true, secretPatterns: workspace.secretPatterns }).catch(() => undefined);
    if (!target) return async () => {}; // the tool refuses the same path with its own message
    // A checkpoint that cannot be taken rejects: the change is not made.
    return current.beforeFileChange(target.relativePath, name);
  }
}
