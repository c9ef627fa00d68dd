import type { ModelMessage } from 'ai';
import type { CompactResult } from '../agent/context/compact.ts';
import type { SubagentRecord } from '../agents/subagent-runner.ts';
import type { Conversation } from '../agent/context/conversation.ts';
import type { AgentEvent, StopReason } from '../agent/loop/events.ts';
import type { TokenUsage } from '../shared/token-usage.ts';
import type { InstructionFile } from '../agent/instructions/project-instructions.ts';
import type { ApprovalPolicy, ApprovalRequest } from '../agent/loop/turn-options.ts';
import type { SessionCheckpoints } from '../checkpoints/session-checkpoints.ts';
import type { ImageAttachment } from '../files/image-file.ts';
import type { Hooks } from '../hooks/hook-runner.ts';
import type { RuntimeMcp } from '../mcp/runtime-mcp.ts';
import type { ServerModels } from '../providers/list-models.ts';
import type { Pricing } from '../models/model-catalogue.ts';
import type { ThinkingSetting } from '../models/thinking.ts';
import type { CommandSandbox } from '../sandbox/command-sandbox.ts';
import type { NetworkGrants } from '../sandbox/network-grants.ts';
import type { SessionSpend } from '../session/store.ts';
import type { SessionWriter } from '../session/session-writer.ts';
import type { ApprovalMode } from '../tools/approval-mode.ts';
import type { SkillCatalogue } from '../tools/skill/skill-catalogue.ts';
import type { TodoItem, TodoList } from '../tools/todo/todo-list.ts';
import type { CallDescription, ToolSpec } from '../tools/tool-spec.ts';

// What the front ends see of the runtime, cut by use: a front end (or a test) depends on the few
// interfaces it reads, and the whole `Runtime` is only what the REPL holds.

/** Runs one user turn on the conversation. */
export interface TurnRunner {
  /**
   * Runs one user turn; never throws. Compacts first when the history is nearly full. In plan mode
   * the request offers only the read-only tools and the model is told it is planning. Notices from
   * the side (MCP servers, checkpoints, saving) come only between blocks: before the turn's output,
   * after a step, or before its end.
   */
  runTurn(text: string, signal: AbortSignal, approval: ApprovalPolicy, options?: TurnRequest): AsyncGenerator<AgentEvent, StopReason>;
}

/** What the user sees before approving a call: a summary line and a preview. */
export interface CallPreview {
  describeCall(request: ApprovalRequest): Promise<CallDescription>;
}

/** How full the context window is. */
export interface ContextMeter {
  readonly windowTokens: number;
  /**
   * Share of the context window the next request starts from, 0..1+: the provider's count of the
   * last step (its prompt and its answer) plus an estimate of what entered the history since; the
   * estimate of history, instructions and tools when the history was replaced since (/compact,
   * /clear, /rewind) or nothing was counted yet. The turn's usage line and /usage both show it.
   */
  contextShare(): number;
  /** Estimated tokens of the history alone. */
  historyTokens(): number;
}

/** The result of one shell line: run_command's result (exit code, stdout, stderr), or why it did not run to its end. */
export type ShellLineResult = { ok: true; output: string } | { ok: false; message: string };

/** What a `!command` gave, and the notices waiting after it (say, that what it changed cannot be undone). */
export type UserCommandResult = ({ ok: true; output: string } | { ok: false; error: string }) & { notices: string[] };

/** Shell lines the user chose, run as run_command runs the model's. */
export interface ShellLines {
  /**
   * Runs a command the user typed (`!command`) without asking — typing it was the approval. What it
   * printed (or why it failed) enters the history as the user's own message, so the next request
   * carries it, and the session file keeps it (redacted). Never throws.
   */
  runUserCommand(command: string, signal: AbortSignal, onProgress?: (text: string) => void): Promise<UserCommandResult>;
  /**
   * Runs a custom command's `` !`…` `` line; the caller has asked for approval. Checkpointed with
   * `checkpointLabel` as a turn of its own, so /undo can reverse it. Never throws.
   */
  runShellLine(command: string, options: { id: string; signal: AbortSignal; checkpointLabel?: string }): Promise<ShellLineResult>;
}

/** The session: its history, usage, todo list and checkpoints, and switching to another. */
export interface SessionControl {
  readonly conversation: Conversation;
  readonly sessionId: string;
  /** What the session has cost (in the provider's currency) and how many requests it made, the turns before a resume included. */
  readonly spend?: { cost: number; currency: string; requests: number };
  /** How requests are priced: the provider's currency and the user's own prices. */
  readonly pricing?: Pricing;
  /** Provider-reported usage of this session, including turns before a resume (subagents' included). */
  readonly sessionUsage: TokenUsage;
  /** Each subagent this session ran, with what it used (/usage lists them). */
  readonly subagentUsage: readonly SubagentRecord[];
  /** The model's todo list (`todo_write`), saved with the session and restored by a resume. */
  readonly todo: TodoList;
  /** The session's checkpoints: what /undo, /redo and /rewind restore. */
  readonly checkpoints: SessionCheckpoints;
  /** Cuts the history back to its first `messageCount` messages (/rewind), saved so --continue resumes there. */
  rewindConversation(messageCount: number): void;
  /** Replaces the history with a summary of it. Never throws. */
  compact(focus: string | undefined, signal: AbortSignal): Promise<CompactResult>;
  /** Starts a new session with the same settings. */
  clear(): void;
  /** Goes on with another saved session (/resume): its history, its transcript to append to, its usage and checkpoints. */
  resumeSession(resumed: ResumedHistory): void;
  /** `text` with every key Sylvan holds replaced, as in the session file (/export). */
  redact(text: string): string;
  /**
   * Keeps a tool call's whole output (too long for the screen) in the session's folder, redacted
   * like the transcript; resolves with its path, rejects with a one-line Error.
   */
  saveToolOutput(call: { toolName: string; toolCallId: string }, text: string): Promise<string>;
  /** Runs the SessionEnd hooks (`reason`: `prompt_input_exit`, `clear`, `other`…); resolves when they have. Never throws. */
  endSession(reason: string): Promise<void>;
  /** Saves and closes the transcript, and ends the MCP servers. */
  close(): void;
}

/** The model the following turns use. */
export interface ModelControl {
  readonly model: string;
  /** The thinking setting the next request uses (`/think`). */
  readonly thinking: ThinkingSetting;
  setThinking(setting: ThinkingSetting): void;
  /** Switches the model for the following turns: its context window, thinking mode and prices follow. */
  setModel(name: string): void;
  /** The server's models (`GET /models`), or why they could not be listed. */
  listModels(signal?: AbortSignal): Promise<ServerModels>;
}

/** What the agent works with: its tools, the instruction files, the MCP servers and the sandbox. */
export interface AgentSetup {
  readonly toolNames: readonly string[];
  /** What a tool declared (built in, or an MCP server's): approval, plan mode and the display read it. */
  toolSpec(toolName: string): ToolSpec | undefined;
  /** AGENTS.md and the like, as added to the system prompt. */
  readonly instructionFiles: readonly InstructionFile[];
  /**
   * Reads the instruction files again (`/memory add`, `/memory reload`): the next request's system
   * prompt carries them. Otherwise they are read once a session, so the cached prefix holds.
   */
  reloadInstructions(): readonly InstructionFile[];
  /** The skills found at start (`/skills`), those turned off, and the files that were not used. */
  readonly skills: SkillCatalogue;
  /** The MCP servers of the settings: their tools, approval, status. */
  readonly mcp: RuntimeMcp;
  /** Where commands (and the MCP servers that ask for it) run fenced: `/sandbox` shows it. */
  readonly sandbox: CommandSandbox;
  /**
   * One-call network permissions for `run_command`: the approval prompt grants a call by its id
   * when the user answers "run with network" (only offered when `sandbox` is on without network).
   */
  readonly networkGrants: NetworkGrants;
  /** The hooks of the settings files: what /hooks lists and trusts. */
  readonly hooks: Hooks;
}

/**
 * Everything heavy — the SDK, the provider, the tools — loaded once, after the prompt is drawn.
 * The CLI imports `create-runtime.ts` with `import()` so start-up stays light.
 */
export interface Runtime extends TurnRunner, CallPreview, ContextMeter, ShellLines, SessionControl, ModelControl, AgentSetup {}

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
  /** What the session has cost so far (its file keeps the running total). */
  spend?: SessionSpend;
}
