import type { LanguageModel, ModelMessage, Tool, ToolSet } from 'ai';
import type { Config } from './config.ts';
import { compactHistory, type CompactResult } from './agent/compact.ts';
import { ContextFitter } from './agent/context-fitter.ts';
import { isCompactionSummary } from './agent/context-window.ts';
import { Conversation } from './agent/conversation.ts';
import { addUsage, emptyUsage, type AgentEvent, type StopReason, type TokenUsage } from './agent/events.ts';
import { guardDeepToolInput } from './agent/deep-input-guard.ts';
import { buildInstructions } from './agent/instructions.ts';
import { instructionsSection, loadInstructionFiles, type InstructionFile } from './agent/project-instructions.ts';
import { offeringOnly, PLAN_MODE_INSTRUCTIONS, planModeToolNames } from './agent/plan-mode.ts';
import type { ApprovalMode } from './tools/approval-mode.ts';
import { redactSecrets, redactTurn } from './agent/redact-secrets.ts';
import { ToolProgressChannel } from './agent/tool-progress-channel.ts';
import { startRuntimeMcp, type RuntimeMcp } from './mcp/runtime-mcp.ts';
import { agentLoop } from './agent/agent-loop.ts';
import { executeToolCall } from './agent/tool-execution.ts';
import type { ApprovalPolicy, ApprovalRequest } from './agent/turn-options.ts';
import { providerContext } from './providers/create-model.ts';
import type { ModelFactory } from './providers/load-model-factory.ts';
import { SearchSourceLog, withSearchSources } from './providers/dashscope-search.ts';
import { listServerModels, type ServerModels } from './providers/list-models.ts';
import { acceptsImages, contextWindowFor } from './providers/model-catalogue.ts';
import type { ThinkingSetting } from './providers/thinking.ts';
import { warmUpFirstRequest } from './providers/warm-up.ts';
import { SessionCheckpoints } from './checkpoints/session-checkpoints.ts';
import { createSession, type SessionWriter } from './session/store.ts';
import { readGitBranch } from './session/git-branch.ts';
import { saveToolOutput } from './session/tool-output-file.ts';
import { createTools } from './tools/index.ts';
import { TodoList, type TodoItem } from './tools/todo/todo-list.ts';
import { userContent, withoutImages } from './agent/image-parts.ts';
import type { ImageAttachment } from './files/image-file.ts';
import { builtInSpec } from './tools/built-in-specs.ts';
import { runCommandSpec } from './tools/shell/run-command-spec.ts';
import { MAX_TIMEOUT_SECONDS } from './tools/shell/command-timeouts.ts';
import type { CallDescription, ToolSpec } from './tools/tool-spec.ts';
import { formatCall } from './ui/render.ts';
import { CommandSandbox } from './sandbox/command-sandbox.ts';
import { findSandbox } from './sandbox/find-sandbox.ts';
import { unavailableNotice } from './sandbox/describe-sandbox.ts';
import { NetworkGrants } from './sandbox/network-grants.ts';
import { withSecretsScrubbed } from './tools/with-secrets-scrubbed.ts';

/** Past this share of the room for history, the history is compacted before the next turn. */
const AUTO_COMPACT_SHARE = 0.8;

/**
 * Everything heavy — the SDK, the provider, the tools — loaded once, after the prompt is drawn.
 * The CLI imports this module with `import()` so start-up stays light.
 */
export interface Runtime {
  readonly conversation: Conversation;
  readonly toolNames: readonly string[];
  /** AGENTS.md and the like, as added to the system prompt. */
  readonly instructionFiles?: readonly InstructionFile[];
  /** The MCP servers of the settings: their tools, approval, status. */
  readonly mcp?: RuntimeMcp;
  /** Where commands (and the MCP servers that ask for it) run fenced: `/sandbox` shows it. */
  readonly sandbox?: CommandSandbox;
  /**
   * One-call network permissions for `run_command`: the approval prompt grants a call by its id
   * when the user answers "run with network" (only offered when `sandbox` is on without network).
   */
  readonly networkGrants?: NetworkGrants;
  readonly model: string;
  readonly sessionId: string;
  readonly windowTokens: number;
  /** The session's checkpoints: what /undo, /redo and /rewind restore. */
  readonly checkpoints?: SessionCheckpoints;
  /** Cuts the history back to its first `messageCount` messages (/rewind), saved so --continue resumes there. */
  rewindConversation?(messageCount: number): void;
  /** Provider-reported usage of this session, including turns before a resume. */
  readonly sessionUsage: TokenUsage;
  /** The model's todo list (`todo_write`), saved with the session and restored by a resume. */
  readonly todo: TodoList;
  /**
   * Runs one user turn on the conversation; never throws. Compacts first when the history is nearly
   * full. In plan mode the request offers only the read-only tools and the model is told it is planning.
   */
  runTurn(text: string, signal: AbortSignal, approval: ApprovalPolicy, options?: TurnRequest): AsyncGenerator<AgentEvent, StopReason>;
  /** What the user sees before approving a call: a summary line and a preview. */
  describeCall(request: ApprovalRequest): Promise<CallDescription>;
  /** What a tool declared (built in, or an MCP server's): approval, plan mode and the display read it. */
  toolSpec?(toolName: string): ToolSpec | undefined;
  /**
   * Runs a command the user typed (`!command`) through `run_command`'s own machinery — the sandbox,
   * the environment without credentials, the timeout, the bounded output, every held key scrubbed,
   * a checkpoint so /undo reverses what it changed — without asking: typing it was the approval.
   * What it printed (or why it failed) enters the history as the user's own message, so the next
   * request carries it, and the session file keeps it (redacted). Never throws.
   */
  runUserCommand(command: string, signal: AbortSignal, onProgress?: (text: string) => void): Promise<UserCommandResult>;
  /** Replaces the history with a summary of it. Never throws. */
  compact(focus: string | undefined, signal: AbortSignal): Promise<CompactResult>;
  /** Starts a new session with the same settings. */
  clear(): void;
  /** Goes on with another saved session (/resume): its history, its transcript to append to, its usage and checkpoints. */
  resumeSession?(resumed: ResumedHistory): void;
  /** Switches the model for the following turns: its context window, thinking mode and prices follow. */
  setModel(name: string): void;
  /** The thinking setting the next request uses (`/think`). */
  readonly thinking?: ThinkingSetting;
  setThinking?(setting: ThinkingSetting): void;
  /** The server's models (`GET /models`), or why they could not be listed. */
  listModels?(signal?: AbortSignal): Promise<ServerModels>;
  /**
   * Runs a shell command the user chose (a custom command's `` !`…` `` line) as run_command runs
   * the model's: the same sandbox, bounds and timeout, no keys in its environment or its output,
   * and checkpointed (with `checkpointLabel`, as a turn of its own, so /undo can reverse it). The
   * caller has asked for approval. Resolves with run_command's result; never throws.
   */
  runCommandLine?(command: string, options: { id: string; signal: AbortSignal; checkpointLabel?: string }): Promise<{ ok: true; output: string } | { ok: false; message: string }>;
  /** `text` with every key Sylvan holds replaced, as in the session file (/export). */
  redact?(text: string): string;
  /**
   * Share of the context window the next request starts from, 0..1+: the provider's count of the
   * last step (its prompt and its answer) plus an estimate of what entered the history since; the
   * estimate of history, instructions and tools when the history was replaced since (/compact,
   * /clear, /rewind) or nothing was counted yet. The turn's usage line and /usage both show it.
   */
  contextShare(): number;
  /** Estimated tokens of the history alone. */
  historyTokens(): number;
  /**
   * Keeps a tool call's whole output (too long for the screen) in the session's folder, redacted
   * like the transcript; resolves with its path, rejects with a one-line Error.
   */
  saveToolOutput?(call: { toolName: string; toolCallId: string }, text: string): Promise<string>;
  /** Saves and closes the transcript. */
  close(): void;
}

/** What a `!command` gave: `run_command`'s result (exit code, stdout, stderr), or why it did not run to its end. */
export type UserCommandResult = ({ ok: true; output: string } | { ok: false; error: string }) & {
  /** Lines about its checkpoint (say, that what it changed cannot be undone), told once. */
  notices: string[];
};

/** The longest a `!command` may run: run_command's own upper bound (the user can stop it sooner with Ctrl-C). */
const USER_COMMAND_TIMEOUT_SECONDS = MAX_TIMEOUT_SECONDS;

/** What the user ran, as their own message in the history. */
export function userCommandMessage(command: string, result: { ok: true; output: string } | { ok: false; error: string }): string {
  return result.ok ? `I ran \`${command}\`:\n${result.output}` : `I ran \`${command}\`, and it did not finish: ${result.error}`;
}

/** What the UI chooses per turn. */
export interface TurnRequest {
  /** The approval mode the turn runs in (default `ask`); the policy passed along follows the same mode. */
  mode?: ApprovalMode;
  /** A model for this turn only (a custom command's `model`), through the same provider, key and base URL. */
  model?: string;
  /** Pictures sent with the text, for a model that sees them (the UI checks that first). */
  images?: readonly ImageAttachment[];
}

/** A saved session's history and its transcript to append to. */
export interface ResumedHistory {
  messages: ModelMessage[];
  writer: SessionWriter;
  usage: TokenUsage;
  todo?: readonly TodoItem[];
}

export interface RuntimeOptions {
  /** Makes the provider's models: `await loadModelFactory(config)`, which loads its package. */
  modelFactory: ModelFactory;
  /** A resumed session's history and its transcript to append to. */
  resumed?: ResumedHistory;
}

export function createRuntime(config: Config, options: RuntimeOptions): Runtime {
  const createModel = options.modelFactory;
  // The SDK prints its warnings (unsupported settings…) to the terminal; only the UI may write there.
  if (!config.debug) (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
  let modelName = config.model;
  const searchSources = config.search?.backend === 'dashscope' ? new SearchSourceLog() : undefined;
  const progress = new ToolProgressChannel();
  let thinking: ThinkingSetting = config.thinking ?? { mode: 'auto' };
  const answerModelFor = (name: string) =>
    guardDeepToolInput(createModel({ ...config, model: name }, { thinking: () => thinking, searchSources, onRetry: progress.retry }));
  const modelFor = (name: string) => ({
    answer: answerModelFor(name),
    compaction: guardDeepToolInput(createModel({ ...config, model: name }, { purpose: 'compaction', onRetry: progress.retry })),
  });
  let models: { answer: LanguageModel; compaction: LanguageModel } = modelFor(modelName);
  // Our fetch retries by error code (providers/guarded-fetch.ts); the SDK's status-only retries stay off.
  const sdkRetries = config.provider === 'mock' ? config.maxRetries : 0;
  // A window set by SYLVAN_CONTEXT_TOKENS stays; the model's own window follows /model.
  const windowFollowsModel = config.contextTokens === contextWindowFor(config.model);
  let windowTokens = config.contextTokens;
  const sandbox = new CommandSandbox({
    settings: config.sandbox ?? { mode: 'auto', network: false, source: 'the default (auto)' },
    modeSource: config.sandbox?.source,
    workspaceRoot: config.cwd,
    sylvanHome: config.home,
  });
  // Probed while the user types; the first turn awaits it instead of blocking on bwrap.
  void sandbox.ready();
  const networkGrants = new NetworkGrants();
  /** The live output of the user's own commands (`!command`), by call id; a model's calls report to the turn. */
  const userCommandProgress = new Map<string, (text: string) => void>();
  let userCommands = 0;
  const mcp = startRuntimeMcp(config, sandbox);
  // Every key Sylvan holds: the provider's and search keys, and the MCP servers' headers.
  const secrets = [...new Set([...(config.secrets ?? []), ...mcp.secrets])];
  const heldSecrets = () => secrets;
  const todo = new TodoList(options.resumed?.todo);
  const tools = createTools({
    workspaceRoot: config.cwd,
    weather: config.weather,
    secretPatterns: config.secretPatterns,
    toolTimeoutMs: config.toolTimeoutSeconds * 1000,
    onProgress: (toolCallId, toolName, text) => (userCommandProgress.get(toolCallId) ?? ((line: string) => progress.report(toolCallId, toolName, line)))(text),
    search: config.search,
    checkpoints: () => checkpoints,
    secrets: heldSecrets,
    sandbox,
    networkGrants,
    todo,
  });
  warmUpFirstRequest(tools);
  const builtInTools: ToolSet = tools;
  const { files: instructionFiles, refused: refusedInstructions } = loadInstructionFiles(config.cwd, config.home, config.secretPatterns);
  /** Told once, with the first turn's notices. */
  const instructionNotes = refusedInstructions.map((line) => `(${line})`);
  const projectInstructions = instructionsSection(instructionFiles);
  const specOf = (toolName: string): ToolSpec | undefined => builtInSpec(toolName) ?? mcp.toolSpec(toolName);
  const instructionsFor = (names: readonly string[]) =>
    buildInstructions({ workspaceRoot: config.cwd, tools: names.map((name) => specOf(name) ?? { name }), projectInstructions });
  let toolNames = Object.keys(tools);
  let instructions = instructionsFor(toolNames);
  // SYLVAN_CACHE=off: no cache to keep a prefix stable for, so as much history as fits.
  const eviction = config.cache === 'off' ? 'turns' : 'chunks';
  let fitter = new ContextFitter(windowTokens, instructions, tools, { eviction });
  let currentTools: ToolSet = builtInTools;
  let waitedForMcp = config.mode.kind !== 'print';
  /** MCP servers come and go between turns: the tool set, the prompt naming it and the fitter follow. */
  const refreshTools = async (): Promise<void> => {
    if (!waitedForMcp) {
      waitedForMcp = true;
      // One question cannot wait for "the next turn": print mode gives the servers a bounded start.
      await mcp.settled((config.mcpStartTimeoutSeconds ?? 10) * 1000);
    }
    const next = { ...withSecretsScrubbed(mcp.tools(), heldSecrets), ...builtInTools };
    const names = Object.keys(next);
    if (names.join('\n') === toolNames.join('\n')) return;
    currentTools = next;
    toolNames = names;
    instructions = instructionsFor(toolNames);
    fitter.reserveFor(instructions, currentTools);
  };
  const mcpNotices = function* (): Generator<AgentEvent> {
    for (const message of instructionNotes.splice(0)) yield { type: 'notice', message };
    for (const message of mcp.takeWarnings()) yield { type: 'notice', message };
    for (const message of checkpoints.takeNotices()) yield { type: 'notice', message };
  };
  let provider = providerContext(config);

  /** A bwrap that is installed but cannot start (no user namespaces) is not known at the banner: told once here. */
  let sandboxTold = false;
  async function* sandboxNotice(): AsyncGenerator<AgentEvent> {
    if (sandboxTold) return;
    sandboxTold = true;
    const state = await sandbox.ready();
    if (state.state === 'unavailable' && findSandbox().available) {
      yield { type: 'notice', message: unavailableNotice(state, config.sandbox?.source ?? 'the settings') };
    }
  }
  const newSession = () =>
    createSession({ home: config.home, cwd: config.cwd, provider: config.provider, model: modelName, secrets, branch: readGitBranch(config.cwd) });
  let session: SessionWriter = options.resumed?.writer ?? newSession();
  const checkpointsOf = (sessionId: string) =>
    new SessionCheckpoints({ home: config.home, sessionId, workspaceRoot: config.cwd, secretPatterns: config.secretPatterns, secrets });
  // Keyed by the session id: a continued session finds its checkpoints again.
  let checkpoints = checkpointsOf(session.id);
  let sessionUsage = options.resumed?.usage ?? emptyUsage();
  const conversation = new Conversation(options.resumed?.messages, (message) => session.appendMessage(message));
  /** The provider's count of the last step's prompt and answer, the history it was counted on, and where that step's messages end in it. */
  let counted: { tokens: number; messages: readonly ModelMessage[]; upTo: number } | undefined;
  const countStep = (usage: TokenUsage) => {
    const messages = conversation.messages;
    // The step's tool results (appended after its answer) were in neither count.
    const upTo = messages.length - (messages.at(-1)?.role === 'tool' ? 1 : 0);
    counted = usage.inputTokens > 0 ? { tokens: usage.inputTokens + usage.outputTokens, messages, upTo } : undefined;
  };
  const contextTokens = (): number => {
    const messages = conversation.messages;
    if (counted && counted.messages === messages && messages.length >= counted.upTo) {
      return counted.tokens + fitter.estimateMessages(messages.slice(counted.upTo));
    }
    return fitter.requestEstimate(messages);
  };
  /** The list changed in the running turn: the UI is told after the event that carried the change. */
  let todoChanged = false;
  todo.onChange((items) => {
    session.appendTodo(items);
    todoChanged = true;
  });
  /** What a request may carry: a model that cannot see pictures is told where they were instead. */
  const forModel = (messages: ModelMessage[], model = modelName): ModelMessage[] => (acceptsImages(model) ? messages : withoutImages(messages));

  const compact = async (focus: string | undefined, signal: AbortSignal): Promise<CompactResult> => {
    const result = await compactHistory({
      model: models.compaction,
      tools: currentTools,
      instructions,
      messages: forModel(fitter.fit(conversation.messages).messages),
      focus,
      abortSignal: signal,
      timeoutMs: config.timeoutSeconds * 1000,
      maxRetries: sdkRetries,
      provider,
    });
    session.appendUsage(result.usage);
    sessionUsage = addUsage(sessionUsage, result.usage);
    if (result.ok) {
      conversation.replace(result.messages);
      session.appendCompaction(result.messages);
    }
    return result;
  };

  /**
   * Past 80% of the room for history, and with at least two turns since the last summary: a long
   * summary alone must not trigger a summary of itself before every turn.
   */
  const needsCompaction = (): boolean => {
    const turnsSinceSummary = conversation.messages.filter(
      (message) => message.role === 'user' && !isCompactionSummary(message),
    ).length;
    return turnsSinceSummary >= 2 && fitter.historyShare(conversation.messages) > AUTO_COMPACT_SHARE;
  };

  // The first failure to save is told once; the conversation goes on either way.
  let saveFailureTold = false;
  function* saveFailureNotice(): Generator<AgentEvent> {
    if (saveFailureTold || session.lastError === undefined) return;
    saveFailureTold = true;
    yield { type: 'notice', message: `(sessions are not being saved: ${session.lastError.message})` };
  }

  /** Plan mode: the same tools (so a refused call is answered by the policy), fewer offered, and the planning instructions. */
  const planTurn = (answer: LanguageModel) => {
    const offered = planModeToolNames(currentTools, specOf);
    return {
      model: offeringOnly(answer, offered),
      instructions: instructionsFor(offered) + PLAN_MODE_INSTRUCTIONS,
    };
  };

  async function* turn(text: string, signal: AbortSignal, approval: ApprovalPolicy, request: TurnRequest): AsyncGenerator<AgentEvent, StopReason> {
    yield* saveFailureNotice();
    if (needsCompaction()) {
      yield { type: 'notice', message: '(the conversation is near the context limit: summarising older turns…)' };
      const result = await compact(undefined, signal);
      yield { type: 'notice', message: result.ok ? '(older turns summarised)' : `(${result.message})` };
    }
    await refreshTools();
    yield* mcpNotices();
    yield* sandboxNotice();
    checkpoints.beginTurn(text, conversation.length);
    // A command's own model serves this turn only; the provider, key and base URL stay the session's.
    const ownModel = request.model !== undefined && request.model !== modelName && config.provider !== 'mock' ? request.model : undefined;
    const answer = ownModel ? answerModelFor(ownModel) : models.answer;
    const planned = request.mode === 'plan' ? planTurn(answer) : { model: answer, instructions };
    const events = withSearchSources(progress.merge(agentLoop({
      model: planned.model,
      tools: currentTools,
      instructions: planned.instructions,
      conversation,
      userMessage: userContent(text, request.images),
      limits: { maxSteps: config.maxSteps, tokenBudget: config.tokenBudget, maxIdenticalCalls: 3 },
      stepTimeoutMs: config.timeoutSeconds * 1000,
      toolTimeoutMs: config.toolTimeoutSeconds * 1000,
      toolTimeoutOf: (toolName) => specOf(toolName)?.timeoutMs?.(config.toolTimeoutSeconds * 1000),
      maxRetries: sdkRetries,
      abortSignal: signal,
      approval,
      provider: ownModel ? providerContext({ ...config, model: ownModel, contextTokens: windowTokens }) : provider,
      fitMessages: (messages) => {
        const fitted = fitter.fit(messages);
        return { ...fitted, messages: forModel(fitted.messages, ownModel) };
      },
      onStepUsage: (sent, usage) => {
        fitter.observe(sent, usage);
        countStep(usage);
        session.appendUsage(usage);
        sessionUsage = addUsage(sessionUsage, usage);
      },
    })), searchSources);
    while (true) {
      const next = await events.next();
      if (next.done) {
        yield* mcpNotices();
        yield* saveFailureNotice();
        return next.value;
      }
      if (next.value.type === 'turn-end') {
        yield* mcpNotices();
        yield* saveFailureNotice();
      }
      yield next.value;
      if (todoChanged) {
        todoChanged = false;
        yield { type: 'todo', items: todo.items };
      }
      yield* mcpNotices();
    }
  }

  return {
    conversation,
    get toolNames() {
      return [...Object.keys(builtInTools), ...Object.keys(mcp.tools()).filter((name) => !(name in builtInTools))];
    },
    instructionFiles,
    mcp,
    sandbox,
    networkGrants,
    get model() {
      return modelName;
    },
    get sessionId() {
      return session.id;
    },
    get checkpoints() {
      return checkpoints;
    },
    rewindConversation(messageCount) {
      const kept = conversation.messages.slice(0, messageCount);
      conversation.replace(kept);
      // A compaction entry replaces every earlier message on load: --continue resumes at the rewound point.
      session.appendCompaction(kept);
    },
    get sessionUsage() {
      return sessionUsage;
    },
    todo,
    get windowTokens() {
      return windowTokens;
    },
    get thinking() {
      return thinking;
    },
    setThinking(setting) {
      thinking = setting;
    },
    listModels: (signal) => listServerModels(config, signal),
    runTurn: (text, signal, approval, request = {}) => redactTurn(turn(text, signal, approval, request), secrets),
    async runCommandLine(command, { id, signal, checkpointLabel }) {
      if (checkpointLabel !== undefined) checkpoints.beginTurn(checkpointLabel, conversation.length);
      // The loop's own way of running a call: the same limit, the same handling of an interrupt.
      const outcome = await executeToolCall(tools.run_command as Tool, { toolCallId: id, input: { command } }, {
        signal,
        timeoutMs: runCommandSpec.timeoutMs!(config.toolTimeoutSeconds * 1000),
        messages: [],
      });
      if (outcome.ok) return { ok: true, output: String(outcome.output) };
      const error = outcome.error;
      return { ok: false, message: redactSecrets(error instanceof Error ? error.message : String(error), secrets) };
    },
    redact: (text) => redactSecrets(text, secrets),
    saveToolOutput: (call, text) => saveToolOutput({ home: config.home, sessionId: session.id, ...call, text, secrets }),
    compact,
    async runUserCommand(command, signal, onProgress) {
      const toolCallId = `user-command-${++userCommands}`;
      if (onProgress) userCommandProgress.set(toolCallId, onProgress);
      // A turn of its own for the checkpoints: /undo reverses what the command changed.
      checkpoints.beginTurn(`!${command}`, conversation.length);
      let result: { ok: true; output: string } | { ok: false; error: string };
      try {
        const run = builtInTools.run_command?.execute;
        if (!run) throw new Error('run_command is not available.');
        const output: unknown = await run({ command, timeout_seconds: USER_COMMAND_TIMEOUT_SECONDS }, { toolCallId, messages: [], abortSignal: signal, context: undefined });
        result = { ok: true, output: typeof output === 'string' ? output : String(output) };
      } catch (error) {
        result = { ok: false, error: signal.aborted ? 'it was stopped (Ctrl-C) before it finished.' : redactSecrets((error as Error).message, secrets) };
      } finally {
        userCommandProgress.delete(toolCallId);
      }
      // The output is scrubbed already; the command line as typed may hold a key too.
      conversation.append({ role: 'user', content: redactSecrets(userCommandMessage(command, result), secrets) });
      return { ...result, notices: checkpoints.takeNotices() };
    },
    describeCall: async (request) => {
      const describe = specOf(request.toolName)?.describe;
      if (!describe) return { summary: formatCall(request.toolName, request.input), preview: '' };
      return describe(request.input, { workspaceRoot: config.cwd, secretPatterns: config.secretPatterns, fence: fenceOf(sandbox) });
    },
    toolSpec: specOf,
    clear() {
      session.close();
      session = newSession();
      checkpoints = checkpointsOf(session.id);
      sessionUsage = emptyUsage();
      conversation.replace([]);
      todo.reset();
    },
    resumeSession(resumed) {
      session.close();
      session = resumed.writer;
      checkpoints = checkpointsOf(session.id);
      sessionUsage = resumed.usage;
      saveFailureTold = false;
      conversation.replace(resumed.messages);
    },
    setModel(name) {
      modelName = name;
      models = modelFor(name);
      if (windowFollowsModel) {
        windowTokens = contextWindowFor(name);
        fitter = new ContextFitter(windowTokens, instructions, currentTools, { eviction });
      }
      provider = providerContext({ ...config, model: name, contextTokens: windowTokens });
    },
    contextShare: () => contextTokens() / windowTokens,
    historyTokens: () => fitter.estimate(conversation.messages),
    close: () => {
      session.close();
      void mcp.close();
    },
  };
}

/** How a command will run, for its approval preview. */
function fenceOf(sandbox: CommandSandbox): string {
  const state = sandbox.state;
  if (state.state === 'on') return state.network ? 'sandboxed, with network' : 'sandboxed, no network ([w] runs it with network)';
  if (state.state === 'unavailable' && state.required) return 'will not run: the sandbox is required but cannot start';
  return 'no sandbox';
}
