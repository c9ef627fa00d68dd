import type { AgentContext, PromptResponse, SessionModeState, SessionUpdate } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { Config } from '../../config/config.ts';
import { Approval } from '../../approval/approval-policy.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { APPROVAL_MODES, MODE_SUMMARIES, type ApprovalMode } from '../../tools/approval-mode.ts';
import { acpKind } from './tool-call-updates.ts';
import { acpStopReason, EventUpdates } from './event-updates.ts';
import { PermissionAsker } from './permission-asker.ts';
import { redactDeep } from './redact-deep.ts';
import type { PromptTurn } from './prompt-content.ts';

const MODE_NAMES: Record<ApprovalMode, string> = { ask: 'Ask', 'auto-edit': 'Auto-edit', plan: 'Plan' };

/** The modes as ACP announces them, with `current` selected. */
export function modeState(current: ApprovalMode): SessionModeState {
  return { currentModeId: current, availableModes: APPROVAL_MODES.map((id) => ({ id, name: MODE_NAMES[id], description: MODE_SUMMARIES[id] })) };
}

/**
 * One editor session: a runtime of its own (its workspace, transcript, checkpoints, MCP servers),
 * its approval mode and "always" answers, and the turn running now, which `session/cancel` stops.
 */
export class AcpSession {
  mode: ApprovalMode;
  readonly approval: Approval;
  private running: AbortController | undefined;

  constructor(
    readonly runtime: Runtime,
    private readonly config: Config,
    private readonly client: AgentContext,
  ) {
    this.mode = config.approvalMode;
    this.approval = new Approval({
      specs: runtime.toolSpec,
      yes: config.yes,
      approvedAhead: runtime.mcp.approvedAhead,
      modes: { mode: () => this.mode, workspaceRoot: config.cwd },
      asker: new PermissionAsker({
        client,
        sessionId: runtime.sessionId,
        describe: (question) => runtime.describeCall(question.request),
        kindOf: (question) => acpKind(question.kind),
        redact: runtime.redact,
        network: {
          offered: (question) => question.kind === 'command' && runtime.sandbox.state.state === 'on' && !runtime.sandbox.state.network,
          grant: (request) => runtime.networkGrants.grant(request.toolCallId, request.input),
        },
      }),
    });
  }

  get workspaceRoot(): string {
    return this.config.cwd;
  }

  get secretPatterns(): readonly string[] {
    return this.config.secretPatterns;
  }

  get provider(): Config['provider'] {
    return this.config.provider;
  }

  get id(): string {
    return this.runtime.sessionId;
  }

  /** Sends one update, every key Sylvan holds scrubbed from it; a client that has gone is not an error of the turn. */
  async send(update: SessionUpdate): Promise<void> {
    await this.client.notify('session/update', { sessionId: this.id, update: redactDeep(update, this.runtime.redact) }).catch(() => {});
  }

  setMode(mode: ApprovalMode): void {
    this.mode = mode;
  }

  /** Stops the running turn: its command, its model request and any approval question it waits on. */
  cancel(): void {
    this.running?.abort();
  }

  /**
   * Runs one turn, its events streamed as updates; resolves with the stop reason. A turn that ends
   * in an error rejects with its one line, as a JSON-RPC error (the editor shows it), as does a
   * prompt sent while a turn runs.
   */
  async prompt(turn: PromptTurn, signal: AbortSignal): Promise<PromptResponse> {
    // Two turns at once would write one history from both sides.
    if (this.running) throw RequestError.invalidRequest(undefined, 'A turn is still running in this session: cancel it (session/cancel) or wait for it to end.');
    const controller = new AbortController();
    this.running = controller;
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop, { once: true });
    const updates = new EventUpdates(this.runtime.toolSpec, this.config.cwd, () => ({
      used: Math.round(this.runtime.contextShare() * this.runtime.windowTokens),
      size: this.runtime.windowTokens,
    }));
    try {
      for (const note of turn.notes) await this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `${note}\n` } });
      const events = this.runtime.runTurn(turn.text, controller.signal, this.approval, { mode: this.mode, images: turn.images });
      // The answer's pieces come scrubbed across their cuts (redactTurn): a key quoted never arrives whole or in two.
      for await (const event of events) {
        for (const update of updates.updatesFor(event)) await this.send(update);
        if (event.type !== 'turn-end') continue;
        const reason = acpStopReason(event.stopReason, event.finishReason);
        if (reason === 'error') throw new RequestError(-32603, event.message ?? 'The turn failed.');
        return { stopReason: reason };
      }
      return { stopReason: controller.signal.aborted ? 'cancelled' : 'end_turn' };
    } finally {
      signal.removeEventListener('abort', stop);
      // A grant is for a call of this turn only.
      this.runtime.networkGrants.clear();
      if (this.running === controller) this.running = undefined;
    }
  }

  close(): void {
    this.cancel();
    this.runtime.close();
  }
}
