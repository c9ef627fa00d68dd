import type { ModelMessage, Tool } from 'ai';
import type { ToolStop } from './events.ts';

/** What the history keeps as a tool's answer (the `output` of a tool-result part). */
export type ToolResultOutput = Extract<Extract<ModelMessage, { role: 'tool' }>['content'][number], { type: 'tool-result' }>['output'];

export type ExecutionOutcome = { ok: true; output: unknown } | { ok: false; error: unknown; stopped?: ToolStop };

/** Thrown into a tool's signal when its time is up; `withTimeoutMessages` turns it into words for the model. */
const timeoutReason = (ms: number) => new DOMException(`The tool did not finish within ${ms} ms.`, 'TimeoutError');

/**
 * Runs one tool call: its `execute` with a signal that aborts on the user's interrupt or after
 * `timeoutMs`, taking the last value of a tool that streams. Never throws: a tool's error (the
 * words it wrote for the model) comes back as `{ ok: false }`, with `stopped` when the interrupt or
 * the timeout ended it.
 */
export async function executeToolCall(
  tool: Tool,
  call: { toolCallId: string; input: unknown },
  options: { signal: AbortSignal; timeoutMs: number; messages: ModelMessage[] },
): Promise<ExecutionOutcome> {
  const execute = tool.execute;
  if (!execute) return { ok: false, error: new Error(`The tool ${JSON.stringify(call.toolCallId)} cannot be run here.`) };
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal.reason);
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(timeoutReason(options.timeoutMs)), options.timeoutMs);
  try {
    const value: unknown = execute(call.input, {
      toolCallId: call.toolCallId,
      messages: options.messages,
      abortSignal: controller.signal,
      context: undefined,
    });
    if (isAsyncIterable(value)) {
      let last: unknown;
      for await (const partial of value) last = partial;
      return { ok: true, output: last };
    }
    return { ok: true, output: await value };
  } catch (error) {
    // The signals say whether the call failed by itself or was ended: the screen words the two apart.
    const stopped: ToolStop | undefined = options.signal.aborted ? 'interrupted' : controller.signal.aborted ? 'timed-out' : undefined;
    return stopped ? { ok: false, error, stopped } : { ok: false, error };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
  }
}

/** The tool's answer as the model reads it: the tool's own `toModelOutput`, else text or JSON; an error as its message. */
export async function modelOutputOf(tool: Tool | undefined, call: { toolCallId: string; input: unknown }, outcome: ExecutionOutcome): Promise<ToolResultOutput> {
  if (!outcome.ok) return { type: 'error-text', value: errorText(outcome.error) };
  if (tool?.toModelOutput) return (await tool.toModelOutput({ toolCallId: call.toolCallId, input: call.input, output: outcome.output })) as ToolResultOutput;
  if (typeof outcome.output === 'string') return { type: 'text', value: outcome.output };
  return { type: 'json', value: toJsonValue(outcome.output) as never };
}

/** An error's message, as the SDK words a tool error for the model. */
export function errorText(error: unknown): string {
  if (error == null) return 'unknown error';
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return JSON.stringify(error) ?? String(error);
}

/** A value as plain JSON (`toJSON` applied, `undefined` dropped); the value is ours, from this process. */
function toJsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value) ?? 'null') as unknown;
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
