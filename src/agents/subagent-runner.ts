import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { agentLoop } from '../agent/loop/agent-loop.ts';
import { Conversation } from '../agent/context/conversation.ts';
import type { ProviderContext } from '../providers/errors/provider-errors.ts';
import { type AgentEvent, type StopReason } from '../agent/loop/events.ts';
import { addUsage, emptyUsage, type TokenUsage } from '../shared/token-usage.ts';
import type { SpendGuard } from '../agent/loop/spend-guard.ts';
import type { ApprovalPolicy } from '../agent/loop/turn-options.ts';
import type { Hooks } from '../hooks/hook-runner.ts';
import { subagentLoopHooks } from '../hooks/loop-hooks.ts';
import { onlyReads, type ToolSpecLookup } from '../tools/tool-spec.ts';
import type { TaskCall, TaskRequest } from '../tools/task/task-tool.ts';
import type { AgentCatalogue } from './agent-catalogue.ts';
import type { AgentDefinition } from './agent-file.ts';
import { agentToolNames } from './agent-tools.ts';
import { ConcurrencyGate } from './concurrency-gate.ts';
import { forkStart } from './fork-start.ts';
import { QuestionQueue, subagentApproval } from './subagent-approval.ts';
import { subagentResult, type SubagentOutcome } from './subagent-result.ts';

/** How many subagents run at once by default; more wait for a place. */
export const DEFAULT_MAX_CONCURRENT = 4;

/** What the parent's turn lends its subagents: set by the turn runner before each turn. */
export interface ParentTurn {
  approval: ApprovalPolicy;
  /** Plan mode: subagents get only read-only tools. */
  plan: boolean;
  /** The parent's model as the turn asks it (a fork sends the same requests), and the plain one for a fresh subagent. */
  model: LanguageModel;
  plainModel: LanguageModel;
  /** The name of the parent turn's model: a subagent without its own is priced at it. */
  modelName: string;
  instructions: string;
  /** Every tool the parent's turn knows (a fork declares the same ones, so its request prefix is the parent's). */
  tools: ToolSet;
  provider: ProviderContext;
  /** The parent's history: a fork starts from it. */
  conversation: Conversation;
  /** The parent turn's budgets in money, requests and time: a subagent's requests count against them. */
  spend?: SpendGuard & { forModel(model: string): SpendGuard };
  /** The user's hooks: a subagent's tool calls meet them as the parent's do, and SubagentStart/SubagentStop mark its run. */
  hooks?: Hooks;
}

/** One subagent's run, as /usage lists it. */
export interface SubagentRecord {
  agentId: string;
  agent: string;
  description: string;
  toolCallId: string;
  usage: TokenUsage;
  steps: number;
  stopReason?: StopReason;
  /** Its conversation (this session's runs only), for /export. */
  messages: readonly ModelMessage[];
}

export interface SubagentRunnerOptions {
  catalogue: AgentCatalogue;
  specOf: ToolSpecLookup;
  workspaceRoot: string;
  /** A model of the same provider, for an agent that names its own. */
  modelFor: (name: string) => LanguageModel;
  limits: { maxSteps: number; tokenBudget: number; stepTimeoutMs: number; toolTimeoutMs: number; maxRetries: number };
  toolTimeoutOf: (toolName: string) => number | undefined;
  /** Where the subagent's events go: merged into the parent turn's stream. */
  report: (event: Extract<AgentEvent, { type: 'subagent' }>) => void;
  /** The provider-reported usage of each subagent step, and the model it was asked of (the session's total and file count it). */
  onUsage: (usage: TokenUsage, model: string) => void;
  /** Each message of a subagent's conversation, linked to its call: the session file keeps them. */
  onMessage?: (link: { toolCallId: string; agentId: string; agent: string }, message: ModelMessage) => void;
  /** A line for the user beside the parent turn's output (a budget's warning), not under a subagent's line. */
  notice?: (message: string) => void;
  maxConcurrent?: number;
}

/**
 * Runs subagents: `agentLoop` again, with its own conversation (or, for a fork, the parent's as it
 * stands), the agent's own system prompt, tools, model and step limit, and the parent's approval
 * policy asked in the agent's name. Returns one bounded answer per run.
 */
export class SubagentRunner {
  readonly records: SubagentRecord[] = [];
  private parent: ParentTurn | undefined;
  private turnUsage = emptyUsage();
  private count = 0;
  private readonly gate: ConcurrencyGate;
  private readonly questions = new QuestionQueue();

  constructor(private readonly options: SubagentRunnerOptions) {
    this.gate = new ConcurrencyGate(options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  }

  /** The agents on offer, for the task tool's description. */
  get agents(): AgentDefinition[] {
    return [...this.options.catalogue.agents.values()];
  }

  /** The parent turn starting now: what its subagents inherit. */
  beginTurn(parent: ParentTurn): void {
    this.parent = parent;
    this.turnUsage = emptyUsage();
  }

  /** What this turn's subagents have used so far: the turn's token budget counts it. */
  get usageThisTurn(): TokenUsage {
    return this.turnUsage;
  }

  /** The `task` tool's work. Rejects with words for the model when the agent is unknown or the run was stopped. */
  readonly run = async (request: TaskRequest, call: TaskCall): Promise<string> => {
    const parent = this.parent;
    if (!parent) throw new Error('Subagents can only be started during a turn.');
    const agent = this.options.catalogue.agents.get(request.subagent_type);
    if (!agent) throw new Error(`There is no agent named "${request.subagent_type}"; the agents are: ${this.agents.map((each) => each.name).join(', ')}.`);
    const release = await this.gate.enter(call.abortSignal);
    try {
      return await this.runAgent(agent, request, call, parent);
    } finally {
      release();
    }
  };

  private async runAgent(agent: AgentDefinition, request: TaskRequest, call: TaskCall, parent: ParentTurn): Promise<string> {
    const { options } = this;
    const agentId = `${agent.name}-${++this.count}`;
    const record: SubagentRecord = { agentId, agent: agent.name, description: request.description, toolCallId: call.toolCallId, usage: emptyUsage(), steps: 0, messages: [] };
    this.records.push(record);
    const available = Object.keys(parent.tools).filter((name) => !parent.plan || onlyReads(options.specOf(name)));
    const allowed = new Set(agentToolNames(agent, available));
    const link = { toolCallId: call.toolCallId, agentId, agent: agent.name };
    const fork = request.fork === true ? forkStart(parent.conversation.messages, call) : undefined;
    const conversation = new Conversation(fork?.messages ?? [], (message) => options.onMessage?.(link, message));
    // A fork declares the parent's very tools and instructions, so its requests begin with the parent's bytes (the prompt cache's prefix).
    const tools = fork ? parent.tools : Object.fromEntries(Object.entries(parent.tools).filter(([name]) => allowed.has(name)));
    const started = Date.now();
    const modelName = fork ? parent.modelName : (agent.model ?? parent.modelName);
    const hooks = parent.hooks && subagentLoopHooks(parent.hooks, { agent_id: agentId, agent_type: agent.name });
    const opening = hooks ? await hooks.start(call.abortSignal) : { notes: [], context: [] };
    for (const message of opening.notes) options.report({ type: 'subagent', agentId, agent: agent.name, description: request.description, toolCallId: call.toolCallId, event: { type: 'notice', message } });
    // What a SubagentStart hook adds goes with the prompt, as UserPromptSubmit's context goes with the user's.
    const prompt = [request.prompt, ...opening.context].join('\n\n');
    const loop = agentLoop({
      model: fork ? parent.model : agent.model ? options.modelFor(agent.model) : parent.plainModel,
      tools,
      instructions: fork ? parent.instructions : this.instructionsFor(agent),
      conversation,
      userMessage: fork ? fork.userMessage(prompt) : prompt,
      limits: { maxSteps: agent.maxTurns ?? options.limits.maxSteps, tokenBudget: options.limits.tokenBudget, maxIdenticalCalls: 3 },
      stepTimeoutMs: options.limits.stepTimeoutMs,
      toolTimeoutMs: options.limits.toolTimeoutMs,
      toolTimeoutOf: options.toolTimeoutOf,
      maxRetries: options.limits.maxRetries,
      abortSignal: call.abortSignal,
      approval: subagentApproval(parent.approval, agent.name, allowed, this.questions),
      ...(hooks && { hooks: hooks.loop }),
      ...(parent.spend && { spend: this.spendFor(parent.spend, modelName) }),
      provider: parent.provider,
      onStepUsage: (_sent, usage) => {
        record.usage = addUsage(record.usage, usage);
        this.turnUsage = addUsage(this.turnUsage, usage);
        options.onUsage(usage, modelName);
      },
    });
    // A fork's copy of the parent's history is not its own work: /export shows what it added.
    const ownFrom = conversation.length;
    let outcome: SubagentOutcome = { agent: agent.name, stopReason: 'error', steps: 0, usage: emptyUsage(), elapsedMs: 0 };
    for await (const event of loop) {
      if (event.type === 'step-start') record.steps = event.step;
      if (event.type === 'turn-end') {
        outcome = { agent: agent.name, stopReason: event.stopReason, steps: event.steps, usage: event.usage, elapsedMs: Date.now() - started, message: event.message };
        record.stopReason = event.stopReason;
      }
      options.report({ type: 'subagent', agentId, agent: agent.name, description: request.description, toolCallId: call.toolCallId, event });
    }
    record.messages = conversation.messages.slice(ownFrom);
    if (outcome.stopReason === 'aborted') throw new Error(`The ${agent.name} subagent was interrupted.`);
    return subagentResult(outcome, conversation.messages);
  }

  /**
   * The parent turn's budgets, priced at `model`, for one subagent's requests. What they warn of
   * (80% of a budget, a model without a price) is the session's and said once, so it goes to the
   * parent's notices: under the subagent's folded line it would be said to no one.
   */
  private spendFor(spend: NonNullable<ParentTurn['spend']>, model: string): SpendGuard {
    const guard = spend.forModel(model);
    return {
      ...guard,
      afterRequest: (usage) => {
        const verdict = guard.afterRequest(usage);
        for (const message of verdict.notices) this.options.notice?.(message);
        return { ...verdict, notices: [] };
      },
    };
  }

  private instructionsFor(agent: AgentDefinition): string {
    return [
      agent.prompt,
      '',
      `You are the "${agent.name}" subagent, started by another agent. The workspace is ${this.options.workspaceRoot}; file paths are relative to it.`,
      'Your last message is all the other agent reads: end with a complete, brief answer.',
    ].join('\n');
  }
}
