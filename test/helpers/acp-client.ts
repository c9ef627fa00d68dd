import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientContext,
  type ClientCapabilities,
  type InitializeResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { cleanCliEnvironment, cliEntry } from './cli.ts';
import { tempWorkspace } from './temp-workspace.ts';
import { killAtEnd, occupySlotNow } from './children.ts';

/** How the test's editor answers `session/request_permission`: an option id, or cancelled. */
export type PermissionAnswer = (request: RequestPermissionRequest) => string | 'cancelled' | Promise<string | 'cancelled'>;

export interface AcpClientOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Defaults to rejecting every call (`reject_once`). */
  answer?: PermissionAnswer;
  /** The editor's open buffers by absolute path: offered as the client's `fs` when given. */
  buffers?: Map<string, string>;
}

export interface AcpClient {
  child: ChildProcessWithoutNullStreams;
  agent: ClientContext;
  /** What Sylvan answered to `initialize`. */
  initialized: InitializeResponse;
  cwd: string;
  /** Every `session/update` in arrival order. */
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  /** `fs/write_text_file` calls the agent made: path and content. */
  writes: { path: string; content: string }[];
  /** Everything the agent wrote to stdout, as lines. */
  stdoutLines(): string[];
  stderr(): string;
  /** Resolves with the exit code once the agent has exited after its stdin closed. */
  close(): Promise<number | null>;
}

/**
 * Starts the built `sylvan --acp` as a child (clean environment, a temp workspace with its own
 * SYLVAN_HOME) and connects the ACP SDK's client side to it, already initialized. The process is
 * killed when the test file ends if the test did not close it.
 */
export async function startAcpClient(options: AcpClientOptions = {}): Promise<AcpClient> {
  const cwd = options.cwd ?? tempWorkspace('sylvan-acp-');
  const release = occupySlotNow();
  const child = killAtEnd(
    spawn(process.execPath, [cliEntry, '--acp'], { cwd, env: { ...cleanCliEnvironment(cwd), ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  child.once('close', release);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const writes: { path: string; content: string }[] = [];
  const answer = options.answer ?? (() => 'reject_once');
  let app = client({ name: 'sylvan-test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', async ({ params }): Promise<RequestPermissionResponse> => {
      permissions.push(params);
      const chosen = await answer(params);
      return chosen === 'cancelled' ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId: chosen } };
    });
  const buffers = options.buffers;
  if (buffers) {
    app = app
      .onRequest('fs/read_text_file', ({ params }) => {
        const content = buffers.get(params.path);
        if (content === undefined) throw new Error(`no buffer for ${params.path}`);
        return { content };
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        writes.push({ path: params.path, content: params.content });
        buffers.set(params.path, params.content);
      });
  }
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  const clientCapabilities: ClientCapabilities = buffers ? { fs: { readTextFile: true, writeTextFile: true } } : {};
  const initialized = await connection.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities });
  return {
    child,
    agent: connection.agent,
    initialized,
    cwd,
    updates,
    permissions,
    writes,
    stdoutLines: () => stdout.split('\n').filter((line) => line !== ''),
    stderr: () => stderr,
    async close() {
      connection.close();
      child.stdin.end();
      return exited;
    },
  };
}

/** The updates of one session, by kind, as a compact list: `tool_call:write_file …`, `agent_message_chunk:text`. */
export function updateKinds(updates: readonly SessionNotification[], sessionId: string): string[] {
  return updates.filter((notification) => notification.sessionId === sessionId).map((notification) => notification.update.sessionUpdate);
}

/** The answer's text: every agent_message_chunk of the session joined. */
export function answerText(updates: readonly SessionNotification[], sessionId: string): string {
  return updates
    .filter((notification) => notification.sessionId === sessionId)
    .map((notification) => notification.update)
    .map((update) => (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : ''))
    .join('');
}
