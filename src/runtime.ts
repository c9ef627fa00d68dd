import type { LanguageModel, ModelMessage } from 'ai';
import type { Config } from './config.ts';
import { compactHistory, type CompactResult } from './agent/compact.ts';
import { ContextFitter } from './agent/context-fitter.ts';
import { isCompactionSummary } from './agent/context-window.ts';
import { Conversation } from './agent/conversation.ts';
import { addUsage, emptyUsage, type AgentEvent, type StopReason, type TokenUsage } from './agent/events.ts';
import { guardDeepToolInput } from './agent/deep-input-guard.ts';
import { buildInstructions } from './agent/instructions.ts';
import { redactTurn } from './agent/redact-secrets.ts';
import { runTurn, type ApprovalPolicy, type ApprovalRequest } from './agent/run-turn.ts';
import { createModel, providerContext } from './providers/create-model.ts';
import { warmUpFirstRequest } from './providers/warm-up.ts';
import { createSession, type SessionWriter } from './session/store.ts';
import { createTools } from './tools/index.ts';
import { describeWrite, type WriteFileInput } from './tools/files/write-file.ts';
import { formatCall } from './ui/render.ts';

/** Past this share of the room for history, the history is compacted before the next turn. */
const AUTO_COMPACT_SHARE = 0.8;

/**
 * Everything heavy — the SDK, the provider, the tools — loaded once, after the prompt is drawn.
 * The CLI imports this module with `import()` so start-up stays light.
 */
export interface Runtime {
  readonly conversation: Conversation;
  readonly toolNames: readonly string[];
  readonly model: string;
  readonly sessionId: string;
  readonly windowTokens: number;
  /** Provider-reported usage of this session, including turns before a resume. */
  readonly sessionUsage: TokenUsage;
  /** Runs one user turn on the conversation; never throws. Compacts first when the history is nearly full. */
  runTurn(text: string, signal: AbortSignal, approval: ApprovalPolicy): AsyncGenerator<AgentEvent, StopReason>;
  /** What the user sees before approving a call: a summary line and a preview. */
  describeCall(request: ApprovalRequest): Promise<{ summary: string; preview: string }>;
  /** Replaces the history with a summary of it. Never throws. */
  compact(focus: string | undefined, signal: AbortSignal): Promise<CompactResult>;
  /** Starts a new session with the same settings. */
  clear(): void;
  /** Switches the model for the following turns. */
  setModel(name: string): void;
  /** Share of the context window the history takes now, 0..1+. */
  contextShare(): number;
  /** Estimated tokens of the history alone. */
  historyTokens(): number;
  /** Saves and closes the transcript. */
  close(): void;
}

export interface RuntimeOptions {
  /** A resumed session's history and its transcript to append to. */
  resumed?: { messages: ModelMessage[]; writer: SessionWriter; usage: TokenUsage };
}

export function createRuntime(config: Config, options: RuntimeOptions = {}): Runtime {
  // The SDK prints its warnings (unsupported settings…) to the terminal; only the UI may write there.
  if (!config.debug) (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
  let modelName = config.model;
  let model: LanguageModel = guardDeepToolInput(createModel(config));
  const tools = createTools({
    workspaceRoot: config.cwd,
    weather: config.weather,
    secretPatterns: config.secretPatterns,
    toolTimeoutMs: config.toolTimeoutSeconds * 1000,
  });
  warmUpFirstRequest(tools);
  const toolNames = Object.keys(tools);
  const instructions = buildInstructions({ workspaceRoot: config.cwd, toolNames });
  const fitter = new ContextFitter(config.contextTokens, instructions, tools);
  let provider = providerContext(config);

  const secrets = config.secrets ?? [];
  const newSession = () => createSession({ home: config.home, cwd: config.cwd, provider: config.provider, model: modelName, secrets });
  let session: SessionWriter = options.resumed?.writer ?? newSession();
  let sessionUsage = options.resumed?.usage ?? emptyUsage();
  const conversation = new Conversation(options.resumed?.messages, (message) => session.appendMessage(message));

  const compact = async (focus: string | undefined, signal: AbortSignal): Promise<CompactResult> => {
    const result = await compactHistory({
      model,
      tools,
      instructions,
      messages: fitter.fit(conversation.messages).messages,
      focus,
      abortSignal: signal,
      timeoutMs: config.timeoutSeconds * 1000,
      maxRetries: config.maxRetries,
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

  async function* turn(text: string, signal: AbortSignal, approval: ApprovalPolicy): AsyncGenerator<AgentEvent, StopReason> {
    yield* saveFailureNotice();
    if (needsCompaction()) {
      yield { type: 'notice', message: '(the conversation is near the context limit: summarising older turns…)' };
      const result = await compact(undefined, signal);
      yield { type: 'notice', message: result.ok ? '(older turns summarised)' : `(${result.message})` };
    }
    const stopReason = yield* runTurn({
      model,
      tools,
      instructions,
      conversation,
      userMessage: text,
      limits: { maxSteps: config.maxSteps, tokenBudget: config.tokenBudget, maxIdenticalCalls: 3 },
      stepTimeoutMs: config.timeoutSeconds * 1000,
      toolTimeoutMs: config.toolTimeoutSeconds * 1000,
      maxRetries: config.maxRetries,
      abortSignal: signal,
      approval,
      provider,
      fitMessages: (messages) => fitter.fit(messages),
      onStepUsage: (sent, usage) => {
        fitter.observe(sent, usage);
        session.appendUsage(usage);
        sessionUsage = addUsage(sessionUsage, usage);
      },
    });
    yield* saveFailureNotice();
    return stopReason;
  }

  return {
    conversation,
    toolNames,
    get model() {
      return modelName;
    },
    get sessionId() {
      return session.id;
    },
    get sessionUsage() {
      return sessionUsage;
    },
    windowTokens: config.contextTokens,
    runTurn: (text, signal, approval) => redactTurn(turn(text, signal, approval), secrets),
    compact,
    describeCall: async (request) =>
      request.toolName === 'write_file'
        ? describeWrite(config.cwd, request.input as WriteFileInput, { secretPatterns: config.secretPatterns })
        : { summary: formatCall(request.toolName, request.input), preview: '' },
    clear() {
      session.close();
      session = newSession();
      sessionUsage = emptyUsage();
      conversation.replace([]);
    },
    setModel(name) {
      modelName = name;
      model = guardDeepToolInput(createModel({ ...config, model: name }));
      provider = providerContext({ ...config, model: name });
    },
    contextShare: () => fitter.usedShare(conversation.messages),
    historyTokens: () => fitter.estimate(conversation.messages),
    close: () => session.close(),
  };
}
