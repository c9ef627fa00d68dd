import type { HookedCall, HookNotes, LoopHooks } from '../agent/loop/turn-options.ts';
import type { Hooks } from './hook-runner.ts';
import type { HookVerdict } from './hook-types.ts';

/** What the loop's hooks use of the runner: whether an event has listeners, and running them. */
export type HookEvents = Pick<Hooks, 'listens' | 'run'>;

/**
 * The hooks at the points the agent loop stands on: tool calls, permissions, notifications, the end
 * of a turn. Inside a subagent each input also names it (`agent_id`, `agent_type`, as Claude Code
 * does), so a hook can tell a subagent's call from the parent's.
 */
export function loopHooks(hooks: HookEvents, agent?: SubagentIdentity): LoopHooks {
  const toolFields = (call: HookedCall) => ({ tool_name: call.toolName, tool_input: call.input, tool_use_id: call.toolCallId, ...agent });
  return {
    async beforeTool(call, signal) {
      if (!hooks.listens('PreToolUse')) return { notes: [] };
      const verdict = await hooks.run('PreToolUse', call.toolName, toolFields(call), signal);
      // Exit 2 and `decision: "block"` deny the call, as a `permissionDecision: "deny"` does.
      if (verdict.block) return { ...notesOf(verdict), decision: 'deny', reason: verdict.block.reason };
      return {
        ...notesOf(verdict),
        ...(verdict.permission && { decision: verdict.permission.decision, ...(verdict.permission.reason !== undefined && { reason: verdict.permission.reason }) }),
        ...(verdict.updatedInput && { updatedInput: verdict.updatedInput }),
      };
    },
    async permissionRequest(call, signal) {
      if (!hooks.listens('PermissionRequest')) return { notes: [] };
      const verdict = await hooks.run('PermissionRequest', call.toolName, toolFields(call), signal);
      if (verdict.block) return { ...notesOf(verdict), decision: 'deny', reason: verdict.block.reason };
      const decision = verdict.permission?.decision;
      if (decision !== 'allow' && decision !== 'deny') return notesOf(verdict);
      return {
        ...notesOf(verdict),
        decision,
        ...(verdict.permission?.reason !== undefined && { reason: verdict.permission.reason }),
        ...(verdict.updatedInput && { updatedInput: verdict.updatedInput }),
      };
    },
    notify(message, kind) {
      if (!hooks.listens('Notification')) return;
      // Nothing waits on a notification: the question is on screen meanwhile.
      void hooks.run('Notification', kind, { message, notification_type: kind, ...agent }, new AbortController().signal);
    },
    async afterTool(call, outcome, signal) {
      const event = outcome.ok ? 'PostToolUse' : 'PostToolUseFailure';
      if (!hooks.listens(event)) return { notes: [] };
      const fields = outcome.ok ? { ...toolFields(call), tool_response: outcome.output } : { ...toolFields(call), error: outcome.error };
      const verdict = await hooks.run(event, call.toolName, fields, signal);
      // The call has run: a "block" here is feedback for the model, given with the result.
      const context = [...(verdict.block ? [verdict.block.reason] : []), ...verdict.context];
      return {
        ...notesOf(verdict),
        ...(context.length > 0 && { context: context.join('\n') }),
        ...(verdict.replacedOutput !== undefined && { replacedOutput: verdict.replacedOutput }),
      };
    },
    async beforeStop(lastText, active, signal) {
      if (!hooks.listens('Stop')) return { notes: [] };
      const verdict = await hooks.run('Stop', undefined, { stop_hook_active: active, last_assistant_message: lastText }, signal);
      return verdict.block ? { ...notesOf(verdict), continueWith: verdict.block.reason } : notesOf(verdict);
    },
  };
}

/** Who a subagent is, as its hooks read it: Claude Code's `agent_id` and `agent_type`. */
export interface SubagentIdentity {
  agent_id: string;
  agent_type: string;
}

/**
 * A subagent's hooks: its tool calls meet the same hooks as the parent's; SubagentStop stands where
 * the parent has Stop (and may keep the subagent going, bounded as Stop is); SubagentStart runs before
 * its first request, and what it adds (`additionalContext`) is given to the subagent with its prompt.
 */
export function subagentLoopHooks(hooks: HookEvents, agent: SubagentIdentity): { loop: LoopHooks; start(signal: AbortSignal): Promise<HookNotes & { context: string[] }> } {
  return {
    loop: {
      ...loopHooks(hooks, agent),
      stopEvent: 'SubagentStop',
      async beforeStop(lastText, active, signal) {
        if (!hooks.listens('SubagentStop')) return { notes: [] };
        const verdict = await hooks.run('SubagentStop', agent.agent_type, { ...agent, stop_hook_active: active, last_assistant_message: lastText }, signal);
        return verdict.block ? { ...notesOf(verdict), continueWith: verdict.block.reason } : notesOf(verdict);
      },
    },
    async start(signal) {
      if (!hooks.listens('SubagentStart')) return { notes: [], context: [] };
      const verdict = await hooks.run('SubagentStart', agent.agent_type, { ...agent }, signal);
      return { ...notesOf(verdict), context: verdict.context };
    },
  };
}

const notesOf = (verdict: HookVerdict): HookNotes => ({ notes: verdict.notes });
