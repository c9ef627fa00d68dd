import { join } from 'node:path';
import { Conversation } from '../../src/agent/context/conversation.ts';
import { emptyUsage } from '../../src/shared/token-usage.ts';
import { SessionCheckpoints } from '../../src/checkpoints/session-checkpoints.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { Config } from '../../src/config/config.ts';
import { Hooks } from '../../src/hooks/hook-runner.ts';
import { HookTrust } from '../../src/hooks/hook-trust.ts';
import { startRuntimeMcp } from '../../src/mcp/runtime-mcp.ts';
import type { Runtime } from '../../src/runtime/runtime.ts';
import { CommandSandbox } from '../../src/sandbox/command-sandbox.ts';
import { NetworkGrants } from '../../src/sandbox/network-grants.ts';
import { builtInSpec } from '../../src/tools/registry/built-in-specs.ts';
import { TodoList } from '../../src/tools/todo/todo-list.ts';
import { tempWorkspace } from './temp-workspace.ts';

/**
 * A whole `Runtime` for a test of the REPL, with `overrides` (getters kept as getters) over empty
 * pieces: a fresh conversation and todo list, no MCP server, no sandbox, checkpoints in a temporary
 * home, every command a no-op. A turn nobody scripted fails the test that starts it.
 */
export function stubRuntime<T extends Partial<Runtime>>(overrides: T): Runtime & NoInfer<T> {
  const workspace = tempWorkspace('sylvan-stub-runtime-');
  const config = loadConfig([], { SYLVAN_HOME: join(workspace, '.sylvan-home'), SYLVAN_PROVIDER: 'mock' }, workspace) as Config;
  const sessionId = 'session-1';
  const defaults: Runtime = {
    conversation: new Conversation(),
    toolNames: [],
    toolSpec: builtInSpec,
    instructionFiles: [],
    reloadInstructions: () => [],
    skills: { skills: [], disabled: [], problems: [] },
    mcp: startRuntimeMcp(config),
    sandbox: new CommandSandbox({ settings: { mode: 'off', network: false, source: 'a test' }, workspaceRoot: workspace, sylvanHome: config.home }),
    networkGrants: new NetworkGrants(),
    hooks: new Hooks({
      files: [],
      trust: new HookTrust(config.home),
      projectDir: workspace,
      specOf: builtInSpec,
      secrets: () => [],
      session: { id: () => sessionId, transcriptPath: () => '', permissionMode: () => 'default' },
      record: () => {},
    }),
    endSession: async () => {},
    model: 'qwen-plus-latest',
    sessionId,
    windowTokens: 131_072,
    sessionUsage: emptyUsage(),
    subagentUsage: [],
    todo: new TodoList(),
    checkpoints: new SessionCheckpoints({ home: config.home, sessionId, workspaceRoot: workspace, secretPatterns: [] }),
    thinking: { mode: 'auto' },
    setThinking() {},
    setModel() {},
    listModels: async () => ({ ok: false, reason: 'a test lists no models' }),
    runTurn(text) {
      throw new Error(`no turn scripted for ${JSON.stringify(text)}`);
    },
    describeCall: async (request) => ({ summary: request.toolName, preview: '' }),
    runUserCommand: async () => ({ ok: false, error: 'a test runs no commands', notices: [] }),
    runShellLine: async () => ({ ok: false, message: 'a test runs no commands' }),
    compact: async () => ({ ok: false, message: 'not scripted', usage: emptyUsage() }),
    clear() {},
    resumeSession() {},
    rewindConversation() {},
    redact: (text) => text,
    saveToolOutput: async () => {
      throw new Error('a test saves no output');
    },
    contextShare: () => 0,
    historyTokens: () => 0,
    close() {},
  };
  return Object.defineProperties(defaults, Object.getOwnPropertyDescriptors(overrides)) as Runtime & T;
}
