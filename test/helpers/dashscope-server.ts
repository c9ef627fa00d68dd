import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dashScopeError, validateChatRequest, isRecord } from './validate-chat-request.ts';

/** The only route the server answers, as DashScope's OpenAI-compatible endpoint names it. */
export const chatCompletionsPath = '/compatible-mode/v1/chat/completions';

export interface ScriptedToolCall {
  /** Defaults to DashScope's shape: "call_" + 22 random hex digits. */
  id?: string;
  name: string;
  /** Sent verbatim when a string (so it may be malformed JSON on purpose); objects are JSON-encoded. */
  arguments: string | Record<string, unknown>;
}

/** Token counts to report instead of the estimate made from the request and reply sizes. */
export interface ScriptedUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
  /** `prompt_tokens_details.cache_creation_input_tokens`: input that created an explicit cache block. */
  cacheCreationTokens?: number;
  /** `prompt_tokens_details.cache_type`, which DashScope sets only for requests with cache markers. */
  cacheType?: string;
}

export type Reply =
  | { kind: 'text'; text: string; chunkSize?: number; finishReason?: string; usage?: ScriptedUsage }
  | {
      kind: 'tool-calls';
      calls: ScriptedToolCall[];
      /** Text streamed before the tool calls, as Qwen sometimes does. */
      text?: string;
      /** DashScope continuation chunks either omit `function.name` or send it as "". Default 'omit'. */
      continuationName?: 'omit' | 'empty';
      usage?: ScriptedUsage;
      /** Default 'tool_calls'; 'length' is an answer that hit the output limit while writing the calls. */
      finishReason?: string;
    }
  | { kind: 'http-error'; status: number; body?: string | object; headers?: Record<string, string> }
  /** Never finishes. `headers` sends the 200 SSE headers first; `text` also streams those deltas first. */
  | { kind: 'hang'; headers?: boolean; text?: string }
  /**
   * Streams `text` (and the opening chunk of each call, arguments unfinished), then destroys the
   * socket; `end: 'reset'` resets the connection instead (RST), `end: 'close'` ends the body cleanly
   * without a finish reason or [DONE].
   */
  | { kind: 'cut'; text: string; calls?: ScriptedToolCall[]; end?: CutEnd }
  /** Sends each item as one `data:` event (objects JSON-encoded), then ends; no automatic [DONE]. */
  | { kind: 'raw'; chunks: Array<string | object>; status?: number; headers?: Record<string, string> };

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  [key: string]: unknown;
}

/** The request body as a well-formed client sends it; nothing here is guaranteed unless `invalid` is unset. */
export interface ChatRequestBody {
  model?: string;
  messages?: ChatMessage[];
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  rawBody: string;
  /** Undefined when the body is not a JSON object. */
  body: ChatRequestBody | undefined;
  /** Set when the server itself answered 4xx (bad route, bad JSON, rejected conversation, wrong key). */
  invalid?: string;
  /** Resolves when the client closed the connection before the answer ended (a stopped request). Not enumerable. */
  readonly abandoned?: Promise<void>;
}

/** `index` counts only requests that passed validation, so it indexes the scripted replies. */
export type Responder = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

export type DashScopeServerOptions = ({ respond: Responder } | { replies: Reply[] }) & {
  /** When set, any other bearer token gets DashScope's 401 invalid_api_key answer. */
  apiKey?: string;
  /** Reject malformed conversations with 400 (default true). */
  validate?: boolean;
};

export interface DashScopeServer {
  /** e.g. "http://127.0.0.1:PORT/compatible-mode/v1", ready for `createOpenAI({ baseURL })`. */
  baseURL: string;
  /** Every request in arrival order, valid or not. */
  requests: RecordedRequest[];
  /** Destroys every open connection (hung ones included), then stops listening. Safe to call twice. */
  close(): Promise<void>;
}

export const text = (content: string, options: { chunkSize?: number; finishReason?: string; usage?: ScriptedUsage } = {}): Reply =>
  ({ kind: 'text', text: content, ...options });

export const toolCalls = (
  calls: ScriptedToolCall[],
  options: { text?: string; continuationName?: 'omit' | 'empty'; usage?: ScriptedUsage; finishReason?: string } = {},
): Reply => ({ kind: 'tool-calls', calls, ...options });

/** Without `body`, answers with DashScope's own error JSON for that status. */
export const httpError = (status: number, options: { body?: string | object; headers?: Record<string, string> } = {}): Reply =>
  ({ kind: 'http-error', status, ...options });

export const hang = (options: { headers?: boolean; text?: string } = {}): Reply => ({ kind: 'hang', ...options });

/** How a `cut` reply ends: the socket destroyed (FIN), reset (RST), or the body ended cleanly. */
export type CutEnd = 'destroy' | 'reset' | 'close';

export const cut = (content: string, calls?: ScriptedToolCall[], end?: CutEnd): Reply =>
  ({ kind: 'cut', text: content, ...(calls && { calls }), ...(end && { end }) });

export const raw = (chunks: Array<string | object>): Reply => ({ kind: 'raw', chunks });

export { dashScopeError, validateChatRequest } from './validate-chat-request.ts';

/**
 * Starts a loopback server (127.0.0.1, a free port) that answers chat-completions requests by streaming
 * SSE exactly as DashScope's OpenAI-compatible endpoint does. With `replies`, the n-th valid request gets
 * `replies[n]`; requests beyond the script get a 500 naming the problem.
 */
export async function startDashScopeServer(options: DashScopeServerOptions): Promise<DashScopeServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let answered = 0;
  const respond: Responder = 'respond' in options ? options.respond : (_request, index) => {
    const reply = options.replies[index];
    if (reply) return reply;
    const message = `dashscope-server: no reply scripted for request #${index + 1} (the script has ${options.replies.length}).`;
    return httpError(500, { body: dashScopeError(500, message), headers: { 'retry-after': '0' } });
  };

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, dashScopeError(500, `dashscope-server: ${describe(error)}`));
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const bodyParts: Buffer[] = [];
    for await (const part of request) bodyParts.push(part as Buffer);
    const rawBody = Buffer.concat(bodyParts).toString('utf8');
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const method = request.method ?? 'GET';
    const record: RecordedRequest = { method, path, headers: flattenHeaders(request), rawBody, body: undefined };
    const abandoned = new Promise<void>((resolve) => response.on('close', () => !response.writableFinished && resolve()));
    Object.defineProperty(record, 'abandoned', { value: abandoned, enumerable: false });
    requests.push(record);

    if (method !== 'POST' || path !== chatCompletionsPath) {
      record.invalid = `No route for ${method} ${path}; the chat endpoint is POST ${chatCompletionsPath}.`;
      return sendJson(response, 404, dashScopeError(404, record.invalid));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      record.invalid = 'The request body is not valid JSON.';
      return sendJson(response, 400, dashScopeError(400, `<400> InternalError.Algo.InvalidParameter: ${record.invalid}`));
    }
    if (isRecord(parsed)) record.body = parsed as ChatRequestBody;
    if (options.apiKey !== undefined && record.headers.authorization !== `Bearer ${options.apiKey}`) {
      record.invalid = 'Incorrect API key provided.';
      return sendJson(response, 401, dashScopeError(401));
    }
    const problem = options.validate === false ? undefined
      : validateChatRequest(parsed) ?? (isRecord(parsed) && parsed.stream !== true ? 'dashscope-server only streams: send "stream": true.' : undefined);
    if (problem !== undefined) {
      record.invalid = problem;
      return sendJson(response, 400, dashScopeError(400, `<400> InternalError.Algo.InvalidParameter: ${problem}`));
    }
    const reply = await respond(record, answered++);
    await sendReply(reply, record.body ?? {}, response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    baseURL: `http://127.0.0.1:${port}/compatible-mode/v1`,
    requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}

async function sendReply(reply: Reply, body: ChatRequestBody, response: ServerResponse): Promise<void> {
  switch (reply.kind) {
    case 'http-error': {
      const payload = reply.body ?? dashScopeError(reply.status);
      const content = typeof payload === 'string' ? payload : JSON.stringify(payload);
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(content);
      return;
    }
    case 'raw':
      startEventStream(response, reply.status, reply.headers);
      for (const chunk of reply.chunks) writeEvent(response, typeof chunk === 'string' ? chunk : JSON.stringify(chunk));
      response.end();
      return;
    case 'hang':
      if (reply.headers === true || reply.text !== undefined) startEventStream(response);
      if (reply.text !== undefined) writeEvents(response, textChunks(chunkFactory(body), reply.text));
      return;
    case 'cut': {
      const chunk = chunkFactory(body);
      startEventStream(response);
      const events = reply.text === '' && reply.calls ? [] : textChunks(chunk, reply.text);
      if (reply.calls) events.push(...toolCallChunks(chunk, reply.calls, { withRole: events.length === 0, complete: false }));
      const stream = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
      // Wait for the bytes to reach the kernel, or destroy() would discard them with the socket.
      await new Promise<void>((resolve) => response.write(stream, () => resolve()));
      if (reply.end === 'close') response.end();
      else if (reply.end === 'reset') response.socket?.resetAndDestroy();
      else response.socket?.destroy();
      return;
    }
    case 'text':
    case 'tool-calls': {
      const chunk = chunkFactory(body);
      const events: object[] = [];
      let output: string;
      if (reply.kind === 'text') {
        events.push(...textChunks(chunk, reply.text, reply.chunkSize), chunk.choice({ content: '' }, reply.finishReason ?? 'stop'));
        output = reply.text;
      } else {
        const hasText = reply.text !== undefined && reply.text !== '';
        if (hasText) events.push(...textChunks(chunk, reply.text ?? ''));
        const options = { withRole: !hasText, complete: true, continuationName: reply.continuationName };
        events.push(...toolCallChunks(chunk, reply.calls, options), chunk.choice({}, reply.finishReason ?? 'tool_calls'));
        output = (reply.text ?? '') + reply.calls.map((call) => call.name + argumentsText(call)).join('');
      }
      if (body.stream_options?.include_usage === true) events.push(chunk.usage(reply.usage ?? estimateUsage(body, output)));
      startEventStream(response);
      writeEvents(response, events);
      writeEvent(response, '[DONE]');
      response.end();
      return;
    }
  }
}

type ChunkFactory = ReturnType<typeof chunkFactory>;

/** All chunks of one response share id, created and model, with DashScope's field set and `usage: null`. */
function chunkFactory(body: ChatRequestBody) {
  const envelope = {
    object: 'chat.completion.chunk',
    usage: null as object | null,
    created: Math.floor(Date.now() / 1000),
    system_fingerprint: null,
    model: typeof body.model === 'string' ? body.model : 'qwen-plus',
    id: `chatcmpl-${randomUUID()}`,
  };
  return {
    choice: (delta: object, finishReason: string | null = null) =>
      ({ choices: [{ delta, finish_reason: finishReason, index: 0, logprobs: null }], ...envelope }),
    usage: (usage: ScriptedUsage) => ({
      choices: [],
      ...envelope,
      usage: {
        prompt_tokens: usage.promptTokens,
        completion_tokens: usage.completionTokens,
        total_tokens: usage.promptTokens + usage.completionTokens,
        prompt_tokens_details: {
          cached_tokens: usage.cachedTokens ?? 0,
          ...(usage.cacheCreationTokens !== undefined && { cache_creation_input_tokens: usage.cacheCreationTokens }),
          ...(usage.cacheType !== undefined && { cache_type: usage.cacheType }),
        },
      },
    }),
  };
}

function textChunks(chunk: ChunkFactory, content: string, chunkSize = 6): object[] {
  const characters = Array.from(content);
  const events = [chunk.choice({ content: '', role: 'assistant' })];
  for (let start = 0; start < characters.length; start += Math.max(1, chunkSize)) {
    events.push(chunk.choice({ content: characters.slice(start, start + Math.max(1, chunkSize)).join('') }));
  }
  return events;
}

/**
 * DashScope's tool-call deltas: the opening chunk carries id, type, name and the first piece of the
 * arguments; continuations carry `"id": ""` and only the next piece; a last empty `function: {}` delta
 * trails the final call.
 */
function toolCallChunks(
  chunk: ChunkFactory,
  calls: ScriptedToolCall[],
  options: { withRole: boolean; complete: boolean; continuationName?: 'omit' | 'empty' },
): object[] {
  const events: object[] = [];
  for (const [index, call] of calls.entries()) {
    const [first = '', ...rest] = splitArguments(argumentsText(call));
    const opening = { index, id: call.id ?? `call_${randomBytes(11).toString('hex')}`, type: 'function', function: { name: call.name, arguments: first } };
    events.push(chunk.choice({ content: null, tool_calls: [opening], ...(options.withRole && index === 0 && { role: 'assistant' }) }));
    if (!options.complete) continue;
    for (const piece of rest) {
      const fn = options.continuationName === 'empty' ? { name: '', arguments: piece } : { arguments: piece };
      events.push(chunk.choice({ tool_calls: [{ function: fn, index, id: '', type: 'function' }] }));
    }
  }
  if (options.complete && calls.length > 0) {
    events.push(chunk.choice({ tool_calls: [{ function: {}, index: calls.length - 1, id: '', type: 'function' }] }));
  }
  return events;
}

function argumentsText(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

/** Two or three pieces, so every call has at least one continuation chunk when its arguments allow it. */
function splitArguments(argumentsString: string): string[] {
  const characters = Array.from(argumentsString);
  const count = characters.length >= 6 ? 3 : characters.length >= 2 ? 2 : 1;
  const size = Math.ceil(characters.length / count);
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; start += size) pieces.push(characters.slice(start, start + size).join(''));
  return pieces.length > 0 ? pieces : [''];
}

function estimateUsage(body: ChatRequestBody, output: string): ScriptedUsage {
  const promptSize = JSON.stringify(body.messages ?? []).length + JSON.stringify(body.tools ?? []).length;
  return { promptTokens: Math.ceil(promptSize / 4), completionTokens: Math.max(1, Math.ceil(output.length / 4)) };
}

function startEventStream(response: ServerResponse, status = 200, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    'content-type': 'text/event-stream;charset=UTF-8',
    'cache-control': 'no-cache',
    'x-request-id': randomUUID(),
    ...headers,
  });
  response.flushHeaders();
}

function writeEvents(response: ServerResponse, events: object[]): void {
  for (const event of events) writeEvent(response, JSON.stringify(event));
}

function writeEvent(response: ServerResponse, data: string): void {
  // The client may have aborted; writing to a destroyed response would only raise an unhandled error.
  if (!response.destroyed) response.write(`data: ${data}\n\n`);
}

function sendJson(response: ServerResponse, status: number, payload: object): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(payload));
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
