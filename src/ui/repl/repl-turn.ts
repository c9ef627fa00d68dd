import type { StopReason, TurnCost } from '../../agent/loop/events.ts';
import type { ApprovalPolicy } from '../../agent/loop/turn-options.ts';
import { emptyUsage } from '../../shared/token-usage.ts';
import { sanitize } from '../../shared/text/sanitize.ts';
import { contextFill, turnCostText } from '../commands/usage-report.ts';
import { modeTag } from '../render/mode-display.ts';
import { EventRenderer, formatUsage } from '../render/render.ts';
import type { TerminalRenderer } from '../render/terminal-renderer.ts';
import { ToolCallLog, trackToolEvent } from '../render/tool-calls.ts';
import type { ReplState } from '../state/repl-state.ts';
import type { LoopControls } from './build-repl-state.ts';
import type { TurnMessage } from './repl-message.ts';
import type { ReplOptions } from './repl-options.ts';

/** The loop's state a turn reads and changes. */
export interface TurnLoopState extends LoopControls {
  /** The last turn ran in plan mode: out of it, the row under the prompt says how to carry the plan out. */
  planned: boolean;
  /** When Ctrl-C last stopped a turn (or was pressed at the prompt): a second within a second quits. */
  lastInterruptAt: number;
}

/**
 * Runs one turn and shows it (live on a terminal, as plain lines otherwise), then its usage line.
 * Ctrl-C stops the turn; twice within a second: 'quit'. What was typed ahead goes back into the
 * input unless the answer completed.
 */
export async function runReplTurn(options: ReplOptions, current: ReplState, loop: TurnLoopState, turn: TurnMessage): Promise<'quit' | undefined> {
  const { reader, output } = options;
  const now = options.now ?? Date.now;
  const controller = new AbortController();
  loop.turnController = controller;
  let quit = false;
  const unsubscribe = options.onInterrupt(() => {
    if (now() - loop.lastInterruptAt < 1000) quit = true;
    loop.lastInterruptAt = now();
    controller.abort();
  });
  // The terminal renderer (and through it the markdown and highlighting libraries) loads on the first turn, not before the prompt.
  const live = output.isTTY
    ? new (await import('../render/terminal-renderer.ts')).TerminalRenderer(output, {
        thinking: () => current.thinking,
        statusTag: () => modeTag(loop.mode),
        typeAhead: reader.typeAhead,
        expandable: reader.onToggleOutput !== undefined,
        earlierCalls: current.lastToolCalls,
        saveOutput: (record, text) => current.runtime.saveToolOutput(record, text),
      })
    : undefined;
  const stopToggling = reader.onToggleOutput?.(() => live?.toggleExpanded());
  const renderer = live ?? new EventRenderer(output, output);
  const toolCalls = live?.toolCalls ?? new ToolCallLog();
  current.lastToolCalls = toolCalls.records;
  live?.begin();
  let turnUsage = emptyUsage();
  let turnCost: TurnCost | undefined;
  let stopReason: StopReason | undefined;
  try {
    const policy = current.approval;
    const turnMode = loop.mode;
    loop.planned = turnMode === 'plan';
    const request = { mode: turnMode, images: turn.images, ...(turn.model !== undefined && { model: turn.model }) };
    for await (const event of current.runtime.runTurn(turn.message, controller.signal, live ? hidingLiveRows(policy, live) : policy, request)) {
      if (!live) trackToolEvent(toolCalls, event);
      await renderer.render(event);
      if (event.type === 'turn-end') {
        turnUsage = event.usage;
        turnCost = event.cost;
        stopReason = event.stopReason;
        if (event.debug && current.config.debug) current.print(current.colour.dim(sanitize(event.debug)));
      }
    }
  } finally {
    live?.close();
    unsubscribe();
    stopToggling?.();
    loop.turnController = undefined;
    // A grant whose call never started (the turn was stopped first) must not reach a later call of the same id.
    current.runtime.networkGrants?.clear();
  }
  if (quit) return 'quit';
  // What was queued during the turn follows an answer that completed; after a stop or a failure it is the user's to send again.
  if (stopReason !== 'completed') reader.typeAhead?.takeBack();
  if (turnUsage.inputTokens + turnUsage.outputTokens > 0) {
    const context = contextFill(current.runtime);
    const money = turnCost ? ` · ${turnCostText(turnCost)}` : '';
    renderer.dimLine(`· ${formatUsage(turnUsage)}${money} · context ${context.percent}% of ${context.window}`);
  }
  return undefined;
}

/** The live rows (status, pending text) make way while the user is asked to approve a call. */
function hidingLiveRows(policy: ApprovalPolicy, live: TerminalRenderer): ApprovalPolicy {
  return {
    decide: (toolName, input) => policy.decide(toolName, input),
    async ask(request, signal) {
      live.suspend();
      try {
        return await policy.ask(request, signal);
      } finally {
        live.resume();
      }
    },
  };
}
