import type { ModelMessage } from 'ai';
import type { Config } from './config.ts';
import { Conversation } from './agent/conversation.ts';
import type { AgentEvent, StopReason } from './agent/events.ts';
import { buildInstructions } from './agent/instructions.ts';
import { runTurn, type ApprovalPolicy, type ApprovalRequest } from './agent/run-turn.ts';
import { createModel, providerContext } from './model/create-model.ts';
import { createTools } from './tools/index.ts';
import { describeWrite, type WriteFileInput } from './tools/write-file.ts';
import { formatCall } from './ui/render.ts';

/**
 * Everything heavy — the SDK, the provider, the tools — loaded once, after the prompt is drawn.
 * The CLI imports this module with `import()` so start-up stays light.
 */
export interface Runtime {
  readonly conversation: Conversation;
  readonly toolNames: readonly string[];
  /** Runs one user turn on the conversation; never throws. */
  runTurn(text: string, signal: AbortSignal, approval: ApprovalPolicy): AsyncGenerator<AgentEvent, StopReason>;
  /** What the user sees before approving a call: a summary line and a preview. */
  describeCall(request: ApprovalRequest): Promise<{ summary: string; preview: string }>;
}

export function createRuntime(
  config: Config,
  options: { history?: ModelMessage[]; onMessage?: (message: ModelMessage) => void } = {},
): Runtime {
  const model = createModel(config);
  const tools = createTools({
    workspaceRoot: config.cwd,
    weather: config.weather,
    secretPatterns: config.secretPatterns,
    toolTimeoutMs: config.toolTimeoutSeconds * 1000,
  });
  const toolNames = Object.keys(tools);
  const instructions = buildInstructions({ workspaceRoot: config.cwd, toolNames });
  const conversation = new Conversation(options.history, options.onMessage);
  const provider = providerContext(config);

  return {
    conversation,
    toolNames,
    describeCall: async (request) =>
      request.toolName === 'write_file'
        ? describeWrite(config.cwd, request.input as WriteFileInput, { secretPatterns: config.secretPatterns })
        : { summary: formatCall(request.toolName, request.input), preview: '' },
    runTurn: (text, signal, approval) =>
      runTurn({
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
      }),
  };
}
