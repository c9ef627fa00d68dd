import type { Tool } from 'ai';
import type { Config } from '../config/config.ts';
import { Conversation } from '../agent/context/conversation.ts';
import { instructionsSection, loadInstructionFiles, type InstructionFile } from '../agent/instructions/project-instructions.ts';
import { skillsSection } from '../agent/instructions/skills-section.ts';
import { findSkills, type SkillCatalogue } from '../tools/skill/skill-catalogue.ts';
import { redactSecrets } from '../shared/redact-secrets.ts';
import { ToolProgressChannel } from '../agent/loop/tool-progress-channel.ts';
import { startRuntimeMcp, type RuntimeMcp } from '../mcp/runtime-mcp.ts';
import type { ModelFactory } from '../providers/load-model-factory.ts';
import { SearchSourceLog } from '../providers/dashscope-search.ts';
import { listServerModels } from '../providers/list-models.ts';
import { contextWindowFor } from '../models/model-catalogue.ts';
import { warmUpFirstRequest } from '../providers/warm-up.ts';
import { saveToolOutput } from '../session/tool-output-file.ts';
import { createTools } from '../tools/registry/create-tools.ts';
import { TodoList } from '../tools/todo/todo-list.ts';
import { builtInSpec } from '../tools/registry/built-in-specs.ts';
import { runCommandSpec } from '../tools/shell/run-command-spec.ts';
import type { ToolSpecLookup } from '../tools/tool-spec.ts';
import type { EditorFiles } from '../shared/editor-files.ts';
import { CommandSandbox } from '../sandbox/command-sandbox.ts';
import { NetworkGrants } from '../sandbox/network-grants.ts';
import { loadAgentCatalogue } from '../agents/agent-catalogue.ts';
import { approvalPreview } from './approval-preview.ts';
import { WindowMeter } from './context-meter.ts';
import { LiveSession } from './live-session.ts';
import { ModelChoice } from './model-choice.ts';
import { NoticeQueue } from './notice-queue.ts';
import { OfferedTools } from './offered-tools.ts';
import type { ResumedHistory, Runtime } from './runtime.ts';
import { ShellLineRunner } from './shell-line-runner.ts';
import { createHooks, untrustedHooksNotes } from './session-hooks.ts';
import { RuntimeTurns } from './turn-runner.ts';
import { wireSubagents } from './subagent-wiring.ts';
import type { SubagentRunner } from '../agents/subagent-runner.ts';
import type { Hooks } from '../hooks/hook-runner.ts';

export interface RuntimeOptions {
  /** Makes the provider's models: `await loadModelFactory(config)`, which loads its package. */
  modelFactory: ModelFactory;
  /** A resumed session's history and its transcript to append to. */
  resumed?: ResumedHistory;
  /** An editor's buffers (ACP with the client's `fs`): the file tools read and write there. */
  editorFiles?: EditorFiles;
}

/** Builds the runtime from its pieces and wires them together; what each piece does is in its own module. */
export function createRuntime(config: Config, options: RuntimeOptions): Runtime {
  // The SDK prints its warnings (unsupported settings…) to the terminal; only the UI may write there.
  if (!config.debug) (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
  const searchSources = config.search?.backend === 'dashscope' ? new SearchSourceLog() : undefined;
  const progress = new ToolProgressChannel();
  const models = new ModelChoice(config, options.modelFactory, { searchSources, onRetry: progress.retry });
  const sandbox = new CommandSandbox({
    settings: config.sandbox ?? { mode: 'auto', network: false, source: 'the default (auto)' },
    modeSource: config.sandbox?.source,
    workspaceRoot: config.cwd,
    sylvanHome: config.home,
  });
  // Probed while the user types; the first turn awaits it instead of blocking on bwrap.
  void sandbox.ready();
  const networkGrants = new NetworkGrants();
  const mcp = startRuntimeMcp(config, sandbox);
  // Every key Sylvan holds: the provider's and search keys, and the MCP servers' headers.
  const secrets = [...new Set([...(config.secrets ?? []), ...mcp.secrets])];
  const todo = new TodoList(options.resumed?.todo);
  const session = new LiveSession(config, secrets, () => models.name, options.resumed);
  const conversation = new Conversation(options.resumed?.messages, (message) => session.writer.appendMessage(message));
  const { files: instructionFiles, refused: refusedInstructions } = loadInstructionFiles(config.cwd, config.home, config.secretPatterns);
  // Once a session, like the instruction files: the system prompt stays the same turn after turn (the cache prefix).
  const skills = findSkills({
    workspaceRoot: config.cwd,
    sylvanHome: config.home,
    userHome: config.userHome,
    disabled: config.settings?.disabledSkills,
    secretPatterns: config.secretPatterns,
  });
  /** Told once, with the first turn's notices. */
  const instructionNotes = [...refusedInstructions, ...skills.problems].map((line) => `(${line})`);
  const specOf: ToolSpecLookup = (toolName) => builtInSpec(toolName) ?? mcp.toolSpec(toolName);
  /** Told once, with the first turn's notices. */
  const untrustedHooksNote: string[] = [];
  const agents = loadAgentCatalogue(config.cwd, config.home);
  const agentNotes = agents.notes.map((line) => `(${line})`);
  const subagents = wireSubagents(config, { catalogue: agents, specOf, models, progress, session, notice: (message) => notices.push(message) });
  const notices = new NoticeQueue([
    () => instructionNotes.splice(0),
    () => agentNotes.splice(0),
    () => mcp.takeWarnings(),
    () => session.checkpoints.takeNotices(),
    () => session.takeSaveFailure(),
    () => untrustedHooksNote.splice(0),
  ]);
  const shellLines = new ShellLineRunner({
    runCommand: () => tools.run_command as Tool | undefined,
    loopTimeoutMs: runCommandSpec.timeoutMs!(config.toolTimeoutSeconds * 1000),
    secrets,
    checkpoints: () => session.checkpoints,
    conversation,
    notices,
  });
  const tools = createTools({
    workspaceRoot: config.cwd,
    weather: config.weather,
    secretPatterns: config.secretPatterns,
    toolTimeoutMs: config.toolTimeoutSeconds * 1000,
    onProgress: (toolCallId, toolName, text) => (shellLines.progressOf(toolCallId) ?? ((line: string) => progress.report(toolCallId, toolName, line)))(text),
    search: config.search,
    checkpoints: () => session.checkpoints,
    secrets: () => secrets,
    sandbox,
    networkGrants,
    todo,
    subagents: { agents: subagents.agents, run: subagents.run },
    skills: skills.skills,
    editorFiles: options.editorFiles,
  });
  warmUpFirstRequest(tools, { http: config.provider !== 'mock' });
  const offered = new OfferedTools({
    workspaceRoot: config.cwd,
    builtIn: tools,
    mcp,
    secrets: () => secrets,
    specOf,
    projectInstructions: instructionsSection(instructionFiles) + skillsSection(skills.skills),
    // Nobody types while print mode or an editor's first turn waits: the servers' tools are worth the wait.
    firstWaitMs: config.mode.kind !== 'repl' ? (config.mcpStartTimeoutSeconds ?? 10) * 1000 : undefined,
  });
  // SYLVAN_CACHE=off: no cache to keep a prefix stable for, so as much history as fits.
  const meter = new WindowMeter(config.contextTokens, conversation, config.cache === 'off' ? 'turns' : 'chunks', offered);
  const hooks = createHooks(config, session, specOf, () => secrets, () => turns.mode);
  untrustedHooksNote.push(...untrustedHooksNotes(hooks));
  const turns = new RuntimeTurns({ config, conversation, meter, offered, models, session, notices, progress, searchSources, sandbox, todo, secrets, specOf, hooks, subagents });
  const instructions = reloadableInstructions(config, instructionFiles, () => skillsSection(skills.skills), offered, meter);
  return asRuntime({ config, conversation, instructions, skills, mcp, sandbox, networkGrants, todo, secrets, specOf, models, session, meter, offered, turns, shellLines, hooks, subagents });
}

/**
 * The instruction files read at start, and read again on request (/memory, /init): the system
 * prompt's project section is rebuilt with them and the window's reserve follows it.
 */
function reloadableInstructions(config: Config, files: readonly InstructionFile[], skills: () => string, offered: OfferedTools, meter: WindowMeter): RuntimePieces['instructions'] {
  return {
    files,
    reload(): readonly InstructionFile[] {
      this.files = loadInstructionFiles(config.cwd, config.home, config.secretPatterns).files;
      offered.setProjectInstructions(instructionsSection(this.files) + skills());
      meter.fitter.reserveFor(offered.instructions, offered.tools);
      return this.files;
    },
  };
}

/** The pieces a runtime is made of. */
interface RuntimePieces {
  config: Config;
  conversation: Conversation;
  instructions: { files: readonly InstructionFile[]; reload(): readonly InstructionFile[] };
  skills: SkillCatalogue;
  mcp: RuntimeMcp;
  sandbox: CommandSandbox;
  networkGrants: NetworkGrants;
  todo: TodoList;
  secrets: string[];
  specOf: ToolSpecLookup;
  models: ModelChoice;
  session: LiveSession;
  meter: WindowMeter;
  offered: OfferedTools;
  turns: RuntimeTurns;
  shellLines: ShellLineRunner;
  hooks: Hooks;
  subagents: SubagentRunner;
}

/** The pieces as the one `Runtime` the front ends hold. */
function asRuntime(pieces: RuntimePieces): Runtime {
  const { config, conversation, instructions, skills, mcp, sandbox, networkGrants, todo, secrets, specOf, models, session, meter, offered, turns, shellLines, hooks, subagents } = pieces;
  // A window set by SYLVAN_CONTEXT_TOKENS stays; the model's own window follows /model.
  const windowFollowsModel = config.contextTokens === contextWindowFor(config.model);
  return {
    conversation,
    get toolNames() {
      return offered.allNames;
    },
    get instructionFiles() {
      return instructions.files;
    },
    reloadInstructions: () => instructions.reload(),
    skills,
    mcp,
    sandbox,
    networkGrants,
    get model() {
      return models.name;
    },
    get sessionId() {
      return session.writer.id;
    },
    get checkpoints() {
      return session.checkpoints;
    },
    rewindConversation(messageCount) {
      const kept = conversation.messages.slice(0, messageCount);
      conversation.replace(kept);
      // A compaction entry replaces every earlier message on load: --continue resumes at the rewound point.
      session.writer.appendCompaction(kept);
    },
    get sessionUsage() {
      return session.usage;
    },
    pricing: session.pricing,
    get spend() {
      return { cost: session.spend.cost, currency: session.spend.currency, requests: session.spend.requests };
    },
    get subagentUsage() {
      return subagents.records;
    },
    todo,
    get windowTokens() {
      return meter.windowTokens;
    },
    get thinking() {
      return models.thinking;
    },
    setThinking(setting) {
      models.thinking = setting;
    },
    listModels: (signal) => listServerModels(config, signal),
    runTurn: (text, signal, approval, request) => turns.runTurn(text, signal, approval, request),
    compact: (focus, signal) => turns.compact(focus, signal),
    runShellLine: (command, lineOptions) => shellLines.runShellLine(command, lineOptions),
    runUserCommand: (command, signal, onProgress) => shellLines.runUserCommand(command, signal, onProgress),
    redact: (text) => redactSecrets(text, secrets),
    saveToolOutput: (call, text) => saveToolOutput({ home: config.home, sessionId: session.writer.id, ...call, text, secrets }),
    describeCall: approvalPreview(config, sandbox, specOf, () => session.checkpoints.commands.noteBefore()),
    toolSpec: specOf,
    hooks,
    async endSession(reason) {
      if (!hooks.listens('SessionEnd')) return;
      await hooks.run('SessionEnd', reason, { reason }, new AbortController().signal);
    },
    clear() {
      turns.sessionStart = 'clear';
      session.startNew();
      conversation.replace([]);
      todo.reset();
    },
    resumeSession(resumed) {
      turns.sessionStart = 'resume';
      session.switchTo(resumed);
      conversation.replace(resumed.messages);
    },
    setModel(name) {
      const window = windowFollowsModel ? contextWindowFor(name) : meter.windowTokens;
      if (windowFollowsModel) meter.resize(window, offered);
      models.set(name, window);
    },
    contextShare: () => meter.contextShare(),
    historyTokens: () => meter.historyTokens(),
    close: () => {
      session.writer.close();
      void mcp.close();
    },
  };
}
