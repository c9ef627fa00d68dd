import { randomUUID } from 'node:crypto';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolCall,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { estimateTextTokens } from '../../shared/text/token-estimate.ts';
import { decideMockReply } from './mock-intent.ts';
import type { AvailableTools } from './mock-tool-intents.ts';
import { withMockReasoning } from './mock-reasoning.ts';

/** Options of the offline mock model. */
export type MockModelOptions = {
  /** Pause between streamed chunks, in milliseconds. 0 (the default) streams without any timer. */
  delayMs?: number;
};

type Response = {
  id: string;
  text: string;
  toolCalls: LanguageModelV4ToolCall[];
  finishReason: LanguageModelV4FinishReason;
  usage: LanguageModelV4Usage;
};

const CJK = '\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uff00-\\uffef\\u3000-\\u303f';
const CHUNK = new RegExp(`[${CJK}]{1,2}|[^\\s${CJK}]+\\s*|\\s+`, 'gu');

/**
 * The built-in offline model (provider 'sylvan-mock', model 'mock'): a real LanguageModelV4 that reads the last user
 * message, calls the offered tools it asks for (get_weather, calculate, current_time, read_file, list_files,
 * write_file), and answers from their results in the user's language (Chinese or English). Deterministic apart from
 * tool call ids (`mock-call-<n>-<instance tag>`, unique across instances). Streams text a word or two characters at a
 * time, `delayMs` apart; an aborted `abortSignal` errors the stream with the signal's reason, even mid-pause.
 */
export function createMockModel(options: MockModelOptions = {}): LanguageModelV4 {
  const delayMs = Math.max(0, options.delayMs ?? 0);
  const instanceTag = randomUUID().slice(0, 8);
  let toolCallCount = 0;
  let responseCount = 0;

  function respond(callOptions: LanguageModelV4CallOptions): Response {
    const reply = decideMockReply(callOptions.prompt, availableTools(callOptions));
    const toolCalls: LanguageModelV4ToolCall[] =
      reply.type === 'tool-calls'
        ? reply.calls.map((call) => {
            toolCallCount += 1;
            return {
              type: 'tool-call',
              toolCallId: `mock-call-${toolCallCount}-${instanceTag}`,
              toolName: call.toolName,
              input: JSON.stringify(call.input),
            };
          })
        : [];
    const text = reply.type === 'text' ? reply.text : '';
    const inputTokens = estimateTextTokens(flattenCallInput(callOptions));
    const outputTokens =
      estimateTextTokens(text) + toolCalls.reduce((sum, call) => sum + estimateTextTokens(call.toolName + call.input), 0);
    responseCount += 1;
    return {
      id: `mock-response-${responseCount}-${instanceTag}`,
      text,
      toolCalls,
      finishReason: toolCalls.length > 0 ? { unified: 'tool-calls', raw: 'tool_calls' } : { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
      },
    };
  }

  return {
    specificationVersion: 'v4',
    provider: 'sylvan-mock',
    modelId: 'mock',
    supportedUrls: {},

    async doGenerate(callOptions) {
      callOptions.abortSignal?.throwIfAborted();
      const response = respond(callOptions);
      return {
        content: [...(response.text ? [{ type: 'text' as const, text: response.text }] : []), ...response.toolCalls],
        finishReason: response.finishReason,
        usage: response.usage,
        response: { id: response.id, modelId: 'mock', timestamp: new Date() },
        warnings: [],
      };
    },

    async doStream(callOptions) {
      callOptions.abortSignal?.throwIfAborted();
      const response = respond(callOptions);
      return { stream: streamParts(withMockReasoning(toStreamParts(response), callOptions.prompt), delayMs, callOptions.abortSignal) };
    },
  };
}

/** The tools this call may use, honouring toolChoice: name → the property names of its input schema. */
function availableTools(callOptions: LanguageModelV4CallOptions): AvailableTools {
  const choice = callOptions.toolChoice;
  const tools = new Map<string, ReadonlySet<string>>();
  if (choice?.type === 'none') return tools;
  for (const tool of callOptions.tools ?? []) {
    if (tool.type !== 'function') continue;
    if (choice?.type === 'tool' && choice.toolName !== tool.name) continue;
    const properties = typeof tool.inputSchema === 'object' ? tool.inputSchema.properties : undefined;
    tools.set(tool.name, new Set(Object.keys(properties ?? {})));
  }
  return tools;
}

/** Everything a real provider would send as input, flattened to text so its tokens can be estimated. */
function flattenCallInput(callOptions: LanguageModelV4CallOptions): string {
  const pieces: string[] = [];
  for (const tool of callOptions.tools ?? []) {
    pieces.push(tool.type === 'function' ? `${tool.name} ${tool.description ?? ''} ${JSON.stringify(tool.inputSchema)}` : tool.name);
  }
  for (const message of callOptions.prompt) {
    if (message.role === 'system') {
      pieces.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') pieces.push(part.text);
      else if (part.type === 'tool-call') pieces.push(part.toolName, JSON.stringify(part.input));
      else if (part.type === 'tool-result') pieces.push(part.toolName, JSON.stringify(part.output));
    }
  }
  return pieces.join('\n');
}

function toStreamParts(response: Response): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: response.id, modelId: 'mock', timestamp: new Date() },
  ];
  if (response.text) {
    const id = `text-${response.id}`;
    parts.push({ type: 'text-start', id });
    for (const chunk of response.text.match(CHUNK) ?? []) parts.push({ type: 'text-delta', id, delta: chunk });
    parts.push({ type: 'text-end', id });
  }
  for (const call of response.toolCalls) {
    parts.push(
      { type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName },
      { type: 'tool-input-delta', id: call.toolCallId, delta: call.input },
      { type: 'tool-input-end', id: call.toolCallId },
      call,
    );
  }
  parts.push({ type: 'finish', finishReason: response.finishReason, usage: response.usage });
  return parts;
}

/** Paced parts: a pause before each text chunk and each tool call; abort errors the stream at once. */
function streamParts(
  parts: readonly LanguageModelV4StreamPart[],
  delayMs: number,
  abortSignal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  if (delayMs === 0) {
    return new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
  }
  const cancellation = new AbortController();
  const signal = abortSignal ? AbortSignal.any([abortSignal, cancellation.signal]) : cancellation.signal;
  let index = 0;
  return new ReadableStream(
    {
      async pull(controller) {
        try {
          const part = parts[index];
          if (part === undefined) return controller.close();
          if (part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-input-start') await pause(delayMs, signal);
          signal.throwIfAborted();
          controller.enqueue(part);
          index += 1;
          if (index === parts.length) controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
      cancel(reason) {
        cancellation.abort(reason);
      },
    },
    // Producing only on demand keeps an abort from being hidden behind already-queued parts.
    { highWaterMark: 0 },
  );
}

function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
