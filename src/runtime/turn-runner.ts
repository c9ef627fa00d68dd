import type { ModelMessage } from 'ai';
import { agentLoop } from '../agent/loop/agent-loop.ts';
import { compactHistory, type CompactResult } from '../agent/context/compact.ts';
import type { Conversation } from '../agent/context/conversation.ts';
import { type AgentEvent, type StopReason } from '../agent/loop/events.ts';
import { emptyUsage } from '../shared/token-usage.ts';
import { userContent, withoutImages } from '../agent/loop/image-parts.ts';
import { redactTurn } from '../agent/loop/redact-events.ts';
import type { ToolProgressChannel } from '../agent/loop/tool-progress-channel.ts';
import type { ApprovalPolicy } from '../agent/loop/turn-options.ts';
import { DEFAULT_NOTIFY_AFTER_SECONDS, type Config } from '../config/config.ts';
import type { Hooks } from '../hooks/hook-runner.ts';
import { loopHooks } from '../hooks/loop-hooks.ts';
import type { ApprovalMode } from '../tools/approval-mode.ts';
import { type SearchSourceLog } from '../providers/dashscope-search.ts';
import { withSearchSources } from './search-sources.ts';
import { acceptsImages } from '../models/model-catalogue.ts';
import type { SubagentRunner } from '../agents/subagent-runner.ts';
import type { CommandSandbox } from '../sandbox/command-sandbox.ts';
import { unavailableNotice } from '../sandbox/describe-sandbox.ts';
import { findSandbox } from '../sandbox/find-sandbox.ts';
import type { TodoList } from '../tools/todo/todo-list.ts';
import type { ToolSpecLookup } from '../tools/tool-spec.ts';
import type { WindowMeter } from './context-meter.ts';
import type { LiveSession } from './live-session.ts';
import type { ModelChoice } from './model-choice.ts';
import { noticesBetweenBlocks, type NoticeQueue } from './notice-queue.ts';
import type { OfferedTools } from './offered-tools.ts';
import { beforeTurnHooks } from './session-hooks.ts';
import type { TurnRequest, TurnRunner } from './runtime.ts';
import { withCost } from './turn-cost.ts';
import { busyAgain, collectWhenIdle } from './idle-collector.ts';
import { notifyWhenLong } from './long-turn-notification.ts';
import { digits } from '../shared/text/count-text.ts';

export interface TurnRunnerOptions {
  config: Config;
  conversation: Conversation;
  meter: WindowMeter;
  offered: OfferedTools;
  models: ModelChoice;
  session: LiveSession;
  notices: NoticeQueue;
  /** Tool progress and retries, merged into the turn's events. */
  progress: ToolProgressChannel;
  searchSources: SearchSourceLog | undefined;
  sandbox: CommandSandbox;
  todo: TodoList;
  secrets: readonly string[];
  specOf: ToolSpecLookup;
  hooks: Hooks;
  subagents: SubagentRunner;
}

/**
 * Runs the user's turns: compaction when the history is nearly full, the MCP servers' tools taken
 * in, plan mode's narrower offer, the agent loop, and the side's notices between blocks.
 */
export class RuntimeTurns implements TurnRunner {
  /** A bwrap that is installed but cannot start (no user namespaces) is not known at the banner: told once, with the first turn. */
  private sandboxTold = false;
  /** The list changed in the running turn: the UI is told after the event that carried the change. */
  private todoChanged = false;
  // Our fetch retries by error code (providers/guarded-fetch.ts); the SDK's status-only retries stay off.
  private readonly sdkRetries: number;
  /** The mode of the running turn, for the hooks' `permission_mode`. */
  mode: ApprovalMode = 'ask';
  /** How this session began, until its SessionStart hooks ran: `startup`, `resume` or `clear`. */
  sessionStart: string | undefined;

  constructor(private readonly options: TurnRunnerOptions) {
    this.sdkRetries = options.config.provider === 'mock' ? options.config.maxRetries : 0;
    this.sessionStart = options.conversation.length > 0 ? 'resume' : 'startup';
    options.todo.onChange((items) => {
      options.session.writer.appendTodo(items);
      this.todoChanged = true;
    });
  }

  runTurn(text: string, signal: AbortSignal, approval: ApprovalPolicy, request: TurnRequest = {}): AsyncGenerator<AgentEvent, StopReason> {
    const { config, hooks, secrets } = this.options;
    const turn = redactTurn(this.turn(text, signal, approval, request), secrets);
    // Only a REPL has a prompt to come back to; print mode exits and an editor shows its own.
    const told = config.mode.kind === 'repl' ? notifyWhenLong(turn, { hooks, afterSeconds: config.notifyAfterSeconds ?? DEFAULT_NOTIFY_AFTER_SECONDS }) : turn;
    return afterwardsIdle(told);
  }

  /** Replaces the history with a summary of it. Never throws. */
  async compact(focus: string | undefined, signal: AbortSignal, trigger: 'manual' | 'auto' = 'manual'): Promise<CompactResult> {
    const { config, conversation, meter, offered, models, session, hooks } = this.options;
    if (hooks.listens('PreCompact')) {
      const verdict = await hooks.run('PreCompact', trigger, { trigger, custom_instructions: focus ?? '' }, signal);
      if (verdict.block) return { ok: false, usage: emptyUsage(), message: `A PreCompact hook kept the history as it is: ${verdict.block.reason}` };
    }
    const result = await compactHistory({
      model: models.compaction,
      tools: offered.tools,
      instructions: offered.instructions,
      messages: this.forModel(meter.fitter.fit(conversation.messages).messages),
      focus,
      abortSignal: signal,
      timeoutMs: config.timeoutSeconds * 1000,
      maxRetries: this.sdkRetries,
      provider: models.provider,
    });
    session.addUsage(result.usage);
    if (result.ok) {
      // A short history summarised at length would grow: keep it (a tiny /compact said ≈ 29 → 49 tokens).
      const [now, then] = [meter.fitter.estimate(conversation.messages), meter.fitter.estimate(result.messages)];
      if (then >= now) {
        const message = `The history (≈ ${digits(now)} tokens) is already shorter than a summary of it (≈ ${digits(then)}); it was left as it was.`;
        return { ok: false, usage: result.usage, message };
      }
      conversation.replace(result.messages);
      session.writer.appendCompaction(result.messages);
    }
    return result;
  }

  private async *turn(text: string, signal: AbortSignal, approval: ApprovalPolicy, request: TurnRequest): AsyncGenerator<AgentEvent, StopReason> {
    const { config, conversation, meter, offered, models, session, notices } = this.options;
    yield* notices.drain();
    if (meter.needsCompaction()) {
      yield { type: 'notice', message: '(the conversation is near the context limit: summarising older turns…)' };
      const result = await this.compact(undefined, signal, 'auto');
      meter.summaryTried(result.ok);
      yield { type: 'notice', message: result.ok ? '(older turns summarised)' : `(${result.message})` };
    }
    if (await offered.refresh()) meter.fitter.reserveFor(offered.instructions, offered.tools);
    await this.tellSandbox();
    yield* notices.drain();
    this.mode = request.mode ?? 'ask';
    const start = this.sessionStart;
    this.sessionStart = undefined;
    const hooked = yield* beforeTurnHooks(this.options.hooks, start, text, signal);
    if (hooked.blocked !== undefined) {
      const message = `A UserPromptSubmit hook blocked this prompt, so nothing was sent: ${hooked.blocked}`;
      yield { type: 'turn-end', stopReason: 'blocked', usage: emptyUsage(), steps: 0, message };
      return 'blocked';
    }
    const sent = hooked.context.length > 0 ? `${text}\n\n${hooked.context.join('\n\n')}` : text;
    session.checkpoints.beginTurn(text, conversation.length);
    // A command's own model serves this turn only; the provider, key and base URL stay the session's.
    const ownModel = request.model !== undefined && request.model !== models.name && config.provider !== 'mock' ? request.model : undefined;
    const answer = ownModel ? models.answerFor(ownModel) : models.answer;
    const planned = request.mode === 'plan' ? offered.planTurn(answer) : { model: answer, instructions: offered.instructions };
    const spend = session.spend.startTurn(ownModel ?? models.name);
    const provider = ownModel ? models.providerFor(ownModel, meter.windowTokens) : models.provider;
    const { subagents } = this.options;
    subagents.beginTurn({ approval, plan: request.mode === 'plan', model: planned.model, plainModel: answer, modelName: ownModel ?? models.name, instructions: planned.instructions, tools: offered.tools, provider, conversation, spend, hooks: this.options.hooks });
    const loop = agentLoop({
      model: planned.model,
      tools: offered.tools,
      instructions: planned.instructions,
      conversation,
      userMessage: userContent(sent, request.images),
      limits: { maxSteps: config.maxSteps, tokenBudget: config.tokenBudget, maxIdenticalCalls: 3, ...(config.breaker && { breaker: config.breaker }) },
      spend,
      resultFailed: (toolName, output) => this.options.specOf(toolName)?.failed?.(output) === true,
      stepTimeoutMs: config.timeoutSeconds * 1000,
      toolTimeoutMs: config.toolTimeoutSeconds * 1000,
      toolTimeoutOf: (toolName) => this.options.specOf(toolName)?.timeoutMs?.(config.toolTimeoutSeconds * 1000),
      maxRetries: this.sdkRetries,
      abortSignal: signal,
      approval,
      hooks: loopHooks(this.options.hooks),
      provider,
      usageBeside: () => subagents.usageThisTurn,
      fitMessages: (messages) => {
        const fitted = meter.fitter.fit(messages);
        return { ...fitted, messages: this.forModel(fitted.messages, ownModel) };
      },
      onStepUsage: (sent, usage) => {
        meter.countStep(sent, usage);
        session.addStepUsage(usage, ownModel ?? models.name);
      },
    });
    const events = withSearchSources(this.options.progress.merge(loop), this.options.searchSources);
    return yield* withCost(this.withTodo(noticesBetweenBlocks(events, notices, () => session.checkpoints.turnStarted())), spend, session.spend);
  }

  /** The turn's events, each followed by the todo list when it changed the list. */
  private async *withTodo(events: AsyncGenerator<AgentEvent, StopReason>): AsyncGenerator<AgentEvent, StopReason> {
    while (true) {
      const next = await events.next();
      if (next.done) return next.value;
      yield next.value;
      if (this.todoChanged) {
        this.todoChanged = false;
        yield { type: 'todo', items: this.options.todo.items };
      }
    }
  }

  private async tellSandbox(): Promise<void> {
    if (this.sandboxTold) return;
    this.sandboxTold = true;
    const state = await this.options.sandbox.ready();
    if (state.state === 'unavailable' && findSandbox().available) {
      this.options.notices.push(unavailableNotice(state, this.options.config.sandbox?.source ?? 'the settings'));
    }
  }

  /** What a request may carry: a model that cannot see pictures is told where they were instead. */
  private forModel(messages: ModelMessage[], model = this.options.models.name): ModelMessage[] {
    return acceptsImages(model) ? messages : withoutImages(messages);
  }
}

/** The turn's events; once it ends, the heap is compacted if the session then stays idle (a long session stays as light as a short one). */
async function* afterwardsIdle<RESULT>(events: AsyncGenerator<AgentEvent, RESULT>): AsyncGenerator<AgentEvent, RESULT> {
  busyAgain();
  try {
    return yield* events;
  } finally {
    collectWhenIdle();
  }
}
