import type { ToolSet } from 'ai';
import { withCheckpoints, type CheckpointRecorder } from '../with-checkpoints.ts';
import { createCalculatorTool } from '../math/calculator.ts';
import { createCurrentTimeTool } from '../time/current-time.ts';
import { createListFilesTool } from '../files/list-files.ts';
import { createReadFileTool } from '../files/read-file.ts';
import { createWeatherTool } from '../weather/weather.ts';
import { withTimeoutMessages } from '../with-timeout-messages.ts';
import { withSecretsScrubbed } from '../with-secrets-scrubbed.ts';
import type { CommandSandbox } from '../../sandbox/command-sandbox.ts';
import type { NetworkGrants } from '../../sandbox/network-grants.ts';
import { createWriteFileTool } from '../files/write-file.ts';
import { createEditFileTool } from '../files/edit-file.ts';
import { createSearchFilesTool } from '../files/search-files.ts';
import { createRunCommandTool } from '../shell/run-command.ts';
import type { SearchConfig } from '../web/web-config.ts';
import { createWebTools } from '../web/web-tools.ts';
import { redactSecrets } from '../../shared/redact-secrets.ts';
import { TodoList } from '../todo/todo-list.ts';
import { builtInSpec } from './built-in-specs.ts';
import { calculatorSpec } from '../math/calculator-spec.ts';
import { currentTimeSpec } from '../time/current-time-spec.ts';
import { editFileSpec } from '../files/edit-file-spec.ts';
import { listFilesSpec } from '../files/list-files-spec.ts';
import { readFileSpec } from '../files/read-file-spec.ts';
import { searchFilesSpec } from '../files/search-files-spec.ts';
import { writeFileSpec } from '../files/write-file-spec.ts';
import { runCommandSpec } from '../shell/run-command-spec.ts';
import { todoWriteSpec } from '../todo/todo-write-spec.ts';
import { weatherSpec } from '../weather/weather-spec.ts';
import type { EditorFiles } from '../../shared/editor-files.ts';
import { createTodoWriteTool } from '../todo/todo-write.ts';
import { taskSpec } from '../task/task-spec.ts';
import { createTaskTool, type RunTask } from '../task/task-tool.ts';
import type { Skill } from '../skill/skill-catalogue.ts';
import { skillSpec } from '../skill/skill-spec.ts';
import { createSkillTool } from '../skill/skill-tool.ts';

export interface ToolContext {
  /** The folder Sylvan was started in; file tools never leave it. */
  workspaceRoot: string;
  weather: 'live' | 'sample';
  secretPatterns: readonly string[];
  /** The limit the SDK enforces per tool call; named in the error the model reads. */
  toolTimeoutMs: number;
  fetch?: typeof fetch;
  /** Where running tools report live output (a command's latest lines) for the user. */
  onProgress?: (toolCallId: string, toolName: string, text: string) => void;
  /** Web search backend and web_fetch settings; absent means no web tools. */
  search?: SearchConfig;
  /** Where the tools that change the workspace record their checkpoints (the current session's). */
  checkpoints?: () => CheckpointRecorder | undefined;
  /** Every key Sylvan holds: scrubbed from every tool's output and errors, and kept from commands' environments. */
  secrets?: () => readonly string[];
  /** Where commands run fenced; absent, as they are. */
  sandbox?: CommandSandbox;
  /** Calls the user allowed the network at their approval. */
  networkGrants?: NetworkGrants;
  /** The session's todo list, which `todo_write` replaces; a list of its own when absent. */
  todo?: TodoList;
  /** The agents `task` offers and what runs them; absent, no `task` tool. */
  subagents?: { agents: readonly { name: string; description: string }[]; run: RunTask };
  /** The skills of this session: with any, the `skill` tool is offered and `read_file` reads their folders. */
  skills?: readonly Skill[];
  /** An editor's buffers (ACP): the file tools read and write there instead of on disk. */
  editorFiles?: EditorFiles;
}

/** The registry: every tool the model can call, made for this workspace, each under its spec's name (`built-in-specs.ts`). */
export function createTools(context: ToolContext) {
  const workspace = { workspaceRoot: context.workspaceRoot, secretPatterns: [...context.secretPatterns], editorFiles: context.editorFiles };
  const tools = {
    [weatherSpec.name]: createWeatherTool({ source: context.weather, fetch: context.fetch }),
    [calculatorSpec.name]: createCalculatorTool(),
    [currentTimeSpec.name]: createCurrentTimeTool(),
    [readFileSpec.name]: createReadFileTool({ ...workspace, readOnlyFolders: context.skills?.map((skill) => skill.folder) }),
    [listFilesSpec.name]: createListFilesTool(workspace),
    [writeFileSpec.name]: createWriteFileTool(workspace),
    [editFileSpec.name]: createEditFileTool(workspace),
    [searchFilesSpec.name]: createSearchFilesTool(workspace),
    [runCommandSpec.name]: createRunCommandTool({
      workspaceRoot: context.workspaceRoot,
      onProgress: context.onProgress && ((toolCallId, text) => context.onProgress?.(toolCallId, runCommandSpec.name, text)),
      sandbox: context.sandbox,
      networkGrants: context.networkGrants,
      get heldKeys() {
        return context.secrets?.() ?? [];
      },
    }),
    [todoWriteSpec.name]: createTodoWriteTool(context.todo ?? new TodoList(), (text) => redactSecrets(text, context.secrets?.() ?? [])),
    ...(context.skills?.length ? { [skillSpec.name]: createSkillTool(context.skills, context.secretPatterns) } : {}),
    ...createWebTools(context.search, { fetch: context.fetch, toolTimeoutMs: context.toolTimeoutMs }),
    ...(context.subagents && { [taskSpec.name]: createTaskTool(context.subagents.agents, context.subagents.run) }),
  } satisfies ToolSet;
  // Inside the timeout wrapper: a stopped command's checkpoint is finished when it has really ended.
  const recorded = context.checkpoints ? withCheckpoints(tools, context.checkpoints, workspace, builtInSpec) : tools;
  return withSecretsScrubbed(withTimeoutMessages(recorded, context.toolTimeoutMs), context.secrets ?? (() => []));
}
