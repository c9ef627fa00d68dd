import { isAbsolute } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { agent, ndJsonStream, PROTOCOL_VERSION, RequestError, type AgentContext, type ClientCapabilities, type InitializeResponse, type McpServer } from '@agentclientprotocol/sdk';
import { ConfigError } from '../../shared/config-error.ts';
import type { Config } from '../../config/config.ts';
import { loadConfig } from '../../config/load-config.ts';
import type { LoadedCommands } from '../../prompt-files/custom-command.ts';
import { acceptsImages } from '../../models/model-catalogue.ts';
import type { Runtime, ResumedHistory } from '../../runtime/runtime.ts';
import type { EditorFiles } from '../../shared/editor-files.ts';
import { isApprovalMode } from '../../tools/approval-mode.ts';
import { prepareHome } from '../../session/session-home.ts';
import { openResumed } from '../commands/resume.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { availableCommands, runSlashCommand } from './acp-commands.ts';
import { AcpSession, modeState } from './acp-session.ts';
import { editorFilesOf } from './editor-files-client.ts';
import { promptTurn } from './prompt-content.ts';
import { replayUpdates } from './session-replay.ts';
import { withEditorMcpServers } from './editor-mcp-servers.ts';

export interface AcpOptions {
  argv: string[];
  env: NodeJS.ProcessEnv;
  /**
   * The configuration of the folder Sylvan was started in (what `initialize` announces), or why it
   * could not be loaded: a missing key is announced as an auth method and fails each session/new.
   */
  startup: Config | { problem: ConfigError; cwd: string };
  version: string;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Logs: the only place anything but protocol messages may go. */
  log: (line: string) => void;
  /** Builds a session's runtime (the CLI's, which loads the provider beside it). */
  loadRuntime: (config: Config, resumed: ResumedHistory | undefined, editorFiles: EditorFiles | undefined) => Promise<Runtime>;
  loadCommands: (config: Config) => LoadedCommands;
}

/** The variable a missing key should be in: the one thing an editor can help with, by asking the user to authenticate. */
const missingKey = (error: unknown): string | undefined => (error instanceof ConfigError ? /needs ([A-Z_]+_API_KEY)/.exec(error.message)?.[1] : undefined);

/**
 * `sylvan --acp`: serves one editor over the Agent Client Protocol on stdin/stdout until the
 * editor closes the stream. stdout carries protocol messages only; everything else is logged to
 * stderr. Resolves with the exit code.
 */
export async function runAcp(options: AcpOptions): Promise<number> {
  const sessions = new Map<string, AcpSession>();
  const commands = new Map<string, LoadedCommands>();
  let capabilities: ClientCapabilities = {};

  const configFor = (cwd: string): Config => folderConfig(options, cwd);

  const open = async (client: AgentContext, cwd: string, mcpServers: McpServer[], resumedId?: string) => {
    const config = withEditorMcpServers(configFor(cwd), mcpServers);
    prepareHome(config.home);
    let resumed: ResumedHistory | undefined;
    if (resumedId !== undefined) {
      try {
        resumed = await openResumed(config, resumedId, options.log, undefined, 'it cannot be loaded twice');
      } catch (error) {
        throw RequestError.invalidParams(undefined, (error as Error).message);
      }
      if (!resumed) throw RequestError.invalidParams(undefined, `Session ${resumedId} is open in another Sylvan; it cannot be loaded twice.`);
    }
    let id = resumedId ?? '';
    const runtime = await options.loadRuntime(config, resumed, editorFilesOf(client, () => id, capabilities.fs ?? {}));
    const session = new AcpSession(runtime, config, client);
    id = session.id;
    sessions.set(id, session);
    commands.set(id, options.loadCommands(config));
    return { session, config, messages: resumed?.messages ?? [] };
  };

  const sessionOf = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };

  /** After the response that named the session: an update for an unknown session would be dropped. */
  const announceCommands = (session: AcpSession) =>
    setImmediate(() => void session.send({ sessionUpdate: 'available_commands_update', availableCommands: availableCommands(commands.get(session.id)) }));

  const app = agent({ name: 'sylvan' })
    .onRequest('initialize', async ({ params }): Promise<InitializeResponse> => {
      capabilities = params.clientCapabilities ?? {};
      return initializeResponse(options);
    })
    .onRequest('authenticate', async () => {
      // Sylvan's keys come from the environment: nothing to do but check again.
      configFor(options.startup.cwd);
      return {};
    })
    .onRequest('session/new', async ({ params, client }) => {
      const { session } = await open(client, params.cwd, params.mcpServers);
      announceCommands(session);
      return { sessionId: session.id, modes: modeState(session.mode) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const { session, config, messages } = await open(client, params.cwd, params.mcpServers, params.sessionId);
      for (const update of replayUpdates(messages, session.runtime.toolSpec, config.cwd, session.runtime.redact)) await session.send(update);
      announceCommands(session);
      return { modes: modeState(session.mode) };
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      if (!isApprovalMode(params.modeId)) throw RequestError.invalidParams(undefined, `Unknown mode "${params.modeId}": ask, auto-edit or plan.`);
      session.setMode(params.modeId);
      await session.send({ sessionUpdate: 'current_mode_update', currentModeId: params.modeId });
      return {};
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest('session/prompt', async ({ params, signal }) => {
      const session = sessionOf(params.sessionId);
      const turn = promptTurn(params.prompt);
      const tell = (line: string) => void session.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `${line.trim()}\n` } });
      const slash = turn.text.startsWith('/') ? await runSlashCommand(turn.text, session, commands.get(session.id), signal, tell) : undefined;
      if (slash && 'said' in slash) {
        await session.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: slash.said } });
        return { stopReason: 'end_turn' };
      }
      if (slash && 'notSent' in slash) return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
      const sent = slash ? { ...turn, text: slash.turn.send, images: [...turn.images, ...(slash.turn.images ?? [])] } : turn;
      return session.prompt(sent, signal);
    });

  const connection = app.connect(ndJsonStream(Writable.toWeb(options.stdout as Writable) as WritableStream<Uint8Array>, Readable.toWeb(options.stdin as Readable) as ReadableStream<Uint8Array>));
  await connection.closed;
  for (const session of sessions.values()) session.close();
  await Promise.all([...sessions.values()].map((session) => session.runtime.mcp.close()));
  return 0;
}

/** The configuration of a session's folder, as if Sylvan had been started there; a missing key asks the editor to authenticate. */
function folderConfig(options: AcpOptions, cwd: string): Config {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, got "${cwd}".`);
  try {
    const loaded = loadConfig(options.argv, options.env, cwd);
    if (!('cwd' in loaded)) throw new ConfigError('--help and --version do not start a session.');
    for (const note of loaded.notes ?? []) options.log(sanitizeLine(note));
    return loaded;
  } catch (error) {
    if (missingKey(error)) throw RequestError.authRequired(undefined, (error as Error).message);
    if (error instanceof ConfigError) throw RequestError.invalidParams(undefined, error.message);
    throw error;
  }
}

/** What Sylvan can do, told once: images if the model reads them, and how to give it a missing key. */
function initializeResponse(options: AcpOptions): InitializeResponse {
  const startup = options.startup;
  const variable = 'problem' in startup ? missingKey(startup.problem) : undefined;
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentInfo: { name: 'sylvan', title: 'Sylvan', version: options.version },
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: 'model' in startup && acceptsImages(startup.model), embeddedContext: true },
      mcpCapabilities: { http: true },
    },
    authMethods: variable ? [{ id: 'environment-key', name: `Set ${variable}`, description: `Sylvan reads its key from ${variable} in the environment the editor starts it with (or .env in the project): set it there and start Sylvan again.` }] : [],
  };
}
