import type { SessionUpdate, StopReason as AcpStopReason } from '@agentclientprotocol/sdk';
import type { AgentEvent, StopReason } from '../../agent/loop/events.ts';
import type { TodoItem } from '../../tools/todo/todo-list.ts';
import type { ToolSpecLookup } from '../../tools/tool-spec.ts';
import { toolCallFailed, toolCallFinished, toolCallProgress, toolCallStarted } from './tool-call-updates.ts';

const text = (value: string) => ({ type: 'text' as const, text: value });

/** The todo list as the editor's plan. */
export function planUpdate(items: readonly TodoItem[]): SessionUpdate {
  const status = { pending: 'pending', in_progress: 'in_progress', done: 'completed' } as const;
  return { sessionUpdate: 'plan', entries: items.map((item) => ({ content: item.text, priority: 'medium', status: status[item.status] })) };
}

/**
 * How a turn ended, as `session/prompt` answers: a stop the user asked for is `cancelled`, an
 * answer cut at the output limit `max_tokens`, the step limit `max_turn_requests`, a filtered
 * answer `refusal`; a guard or a timeout ends the turn (its line was sent as text). An error is not
 * a stop reason: the prompt fails with its one line.
 */
export function acpStopReason(reason: StopReason, finishReason: string | undefined): AcpStopReason | 'error' {
  if (reason === 'aborted') return 'cancelled';
  if (reason === 'error') return 'error';
  if (reason === 'max-steps' || reason === 'request-budget') return 'max_turn_requests';
  if (reason === 'token-budget' || finishReason === 'length') return 'max_tokens';
  if (finishReason === 'content-filter') return 'refusal';
  return 'end_turn';
}

/** Turns one turn's events into `session/update`s, remembering each call's input for its result. */
export class EventUpdates {
  private readonly inputs = new Map<string, unknown>();

  constructor(
    private readonly specOf: ToolSpecLookup,
    private readonly workspaceRoot: string,
    /** The share of the context window in use, for `usage_update`. */
    private readonly usage: () => { used: number; size: number },
  ) {}

  updatesFor(event: AgentEvent): SessionUpdate[] {
    switch (event.type) {
      case 'text-delta':
        return [{ sessionUpdate: 'agent_message_chunk', content: text(event.text) }];
      case 'reasoning-delta':
        return [{ sessionUpdate: 'agent_thought_chunk', content: text(event.text) }];
      case 'tool-call':
        this.inputs.set(event.toolCallId, event.input);
        return [toolCallStarted(event, this.specOf(event.toolName), this.workspaceRoot)];
      case 'tool-result': {
        const input = this.inputs.get(event.toolCallId);
        return [toolCallFinished({ toolCallId: event.toolCallId, input, output: event.output }, this.specOf(event.toolName), this.workspaceRoot)];
      }
      case 'tool-error':
        return [toolCallFailed(event.toolCallId, event.error)];
      case 'tool-denied':
        return [toolCallFailed(event.toolCallId, event.reason ?? 'Not approved.')];
      case 'tool-progress':
        return [toolCallProgress(event.toolCallId, event.text)];
      case 'todo':
        return [planUpdate(event.items)];
      case 'subagent':
        // A subagent's own calls show as progress of the `task` call that started it.
        return event.event.type === 'tool-call' ? [toolCallProgress(event.toolCallId, `${event.agentId}: ${event.event.toolName}\n`)] : [];
      case 'notice':
        return [{ sessionUpdate: 'agent_thought_chunk', content: text(`${event.message}\n`) }];
      case 'step-end':
        return [{ sessionUpdate: 'usage_update', ...this.usage() }];
      case 'turn-end':
        // A turn that stopped short says why in the answer; an error fails the prompt instead.
        return event.message && event.stopReason !== 'error' && event.stopReason !== 'aborted'
          ? [{ sessionUpdate: 'agent_message_chunk', content: text(`\n\n${event.message}`) }]
          : [];
      default:
        return [];
    }
  }
}
