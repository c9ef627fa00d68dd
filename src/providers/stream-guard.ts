import { ownFaultCode, problemFromBody, type FaultKind, type Problem } from './errors/provider-errors.ts';
import { ProviderFault } from './errors/provider-fault.ts';

/** Bounds on one streamed answer: a line without a newline, and the whole (decompressed) body. */
export interface StreamLimits {
  lineChars: number;
  totalChars: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { lineChars: 10 * 1024 * 1024, totalChars: 100 * 1024 * 1024 };

/** What the first bytes of a 200 said: a stream to pass on, or a problem instead of one. */
export type Opening =
  | { kind: 'stream'; body: ReadableStream<Uint8Array> }
  | { kind: 'problem'; problem: Problem };

const fault = (kind: FaultKind): Problem => ({ status: 200, fault: kind });

/**
 * Reads a 200's body up to its first event that tells something (text, reasoning, a tool call, a
 * finish — or an error) and decides what it is. Events that show nothing (the opening role-only
 * chunk, empty deltas, keep-alive comments) are read past, so an error that follows them still
 * arrives before any text was shown and may be retried. A stream comes back whole (the bytes read
 * so far put back in front) behind `guardEventStream`; an HTML page, a JSON body, an empty body,
 * an error, or a connection cut or a body ended before anything was shown comes back as a problem,
 * so the caller can retry it or report it before anything reaches the SDK.
 */
export async function openEventStream(
  body: ReadableStream<Uint8Array> | null,
  limits: StreamLimits = DEFAULT_STREAM_LIMITS,
  attempts = 1,
): Promise<Opening> {
  if (!body) return { kind: 'problem', problem: fault('empty-body') };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const chunks: Uint8Array[] = [];
  // What was read is looked at only where it is new (the first characters after leading white
  // space; events as their blank lines arrive): rescanning all of it on every chunk made a 10 MB
  // first line cost seconds of CPU before it was refused.
  const pieces: string[] = [];
  let length = 0;
  let head = '';
  const opening = new OpeningScanner();
  const take = (text: string): void => {
    if (text === '') return;
    pieces.push(text);
    length += text.length;
    opening.add(text);
    let from = 0;
    if (head === '') {
      from = text.search(/\S/);
      if (from < 0) return;
    }
    if (head.length < 16) head += text.slice(from, from + 16 - head.length);
  };
  let ended = false;
  while (true) {
    if (head !== '') {
      if (!/^(data|event|id|retry|:)/.test(head)) break;
      if (opening.telling !== undefined || opening.silentChars > SILENT_CHARS) break;
    }
    if (ended) break;
    if (length > limits.lineChars) {
      void reader.cancel().catch(() => {});
      return { kind: 'problem', problem: fault('line-too-long') };
    }
    let read: Awaited<ReturnType<typeof reader.read>>;
    try {
      read = await reader.read();
    } catch (error) {
      // Nothing was shown yet, so the request may be sent again; the user's interrupt is not a cut.
      if (!isConnectionCut(error)) throw error;
      return { kind: 'problem', problem: fault('cut-early') };
    }
    const { done, value } = read;
    if (done) {
      ended = true;
      take(decoder.decode());
    } else {
      chunks.push(value);
      take(decoder.decode(value, { stream: true }));
    }
  }
  const seen = pieces.join('');
  const start = seen.trimStart();
  if (start === '') return { kind: 'problem', problem: fault('empty-body') };

  if (start.startsWith('<')) {
    void reader.cancel().catch(() => {});
    return { kind: 'problem', problem: fault('html-body') };
  }
  if (start.startsWith('{') || start.startsWith('[')) {
    const whole = await readRest(reader, decoder, seen, 1024 * 1024);
    return { kind: 'problem', problem: problemFromBody(200, whole) ?? fault('json-body') };
  }
  if (!/^(data|event|id|retry|:)/.test(start)) {
    void reader.cancel().catch(() => {});
    return { kind: 'problem', problem: fault('not-a-stream') };
  }
  const firstProblem = errorFrameIn(opening.telling ?? (ended ? opening.rest() : ''));
  if (firstProblem) {
    void reader.cancel().catch(() => {});
    return { kind: 'problem', problem: firstProblem };
  }
  // Ended with nothing shown, not even a finish reason or [DONE]: cut short, and safe to send again.
  if (ended && opening.telling === undefined && showsNothing(opening.rest())) return { kind: 'problem', problem: fault('ended-early') };
  // The bytes read so far go first, from the same pass that reads the rest (no stream in between).
  return { kind: 'stream', body: guardedBody(reader, chunks, limits, attempts) };
}

/** A chunk that names why the answer ended (`null` and `""` say nothing yet). */
const FINISH_REASON = /"finish_reason"\s*:\s*"[^"]/;

/**
 * An error frame of Sylvan's own, ending a stream that was cut short after something was shown:
 * the provider turns it into an error part after the text, in order, and `problemFromValue` reads
 * its code back as the fault.
 */
function ownFaultFrame(kind: 'cut-mid-answer' | 'ended-mid-answer'): string {
  const message = kind === 'cut-mid-answer' ? 'the connection was cut before the answer ended' : 'the stream ended without a finish reason or [DONE]';
  return `data: ${JSON.stringify({ error: { code: ownFaultCode(kind), type: 'sylvan', message } })}\n\n`;
}

/** undici's words for a connection that broke while a body was read (never the user's interrupt). */
function isConnectionCut(error: unknown): boolean {
  for (let link = error, depth = 0; link instanceof Error && depth < 4; link = link.cause, depth++) {
    if (link.name === 'AbortError' || link.name === 'TimeoutError') return false;
    const code = (link as { code?: unknown }).code;
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE' || /^terminated$|other side closed|socket hang up/i.test(link.message)) return true;
  }
  return false;
}

/** Opening events that show nothing are read past up to this much; then the stream is passed on as it is. */
const SILENT_CHARS = 256 * 1024;

/**
 * Finds, as the opening bytes arrive, the first complete event that tells something (an error,
 * text, reasoning, a tool call, a finish, anything unknown); each part of the text is scanned once,
 * so a 10 MB first line costs no more than reading it.
 */
class OpeningScanner {
  /** The first telling event, once found. */
  telling: string | undefined;
  /** How far the complete events that show nothing reach. */
  silentChars = 0;
  /** The event being read (since the last blank line), in pieces until a blank line may end it. */
  private pieces: string[] = [];
  private tail = '';
  private consumed = 0;

  /** Takes the next text read; only what it adds (and the last few characters before) is searched. */
  add(text: string): void {
    if (this.telling !== undefined || text === '') return;
    const window = this.tail + text;
    this.pieces.push(text);
    if (!/\r?\n\r?\n/.test(window)) {
      this.tail = window.slice(-3);
      return;
    }
    let buffer = this.pieces.join('');
    const blank = /\r?\n\r?\n/g;
    while (this.telling === undefined) {
      blank.lastIndex = 0;
      const found = blank.exec(buffer);
      if (!found) break;
      const event = buffer.slice(0, found.index);
      const end = found.index + found[0].length;
      this.consumed += end;
      buffer = buffer.slice(end);
      if (errorFrameIn(event) !== undefined || !showsNothing(event)) this.telling = event;
      else this.silentChars = this.consumed;
    }
    this.pieces = [buffer];
    this.tail = buffer.slice(-3);
  }

  /** What follows the last complete event: for a body that ended, its last (unterminated) event. */
  rest(): string {
    return this.pieces.join('');
  }
}

/** An event the user would not see: a comment, an empty data line, a chunk whose deltas are empty. */
function showsNothing(event: string): boolean {
  const data = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .join('\n');
  if (data === '') return event.split(/\r?\n/).every((line) => line.trim() === '' || line.startsWith(':'));
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return false;
  }
  const choices = (parsed as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return false;
  return choices.every((choice) => {
    const { delta, finish_reason: finish } = (choice ?? {}) as { delta?: Record<string, unknown>; finish_reason?: unknown };
    if (finish !== null && finish !== undefined) return false;
    const said = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
    return delta === undefined || !['content', 'reasoning_content', 'reasoning', 'tool_calls', 'function_call'].some((key) => said(delta[key]));
  });
}

async function readRest(reader: ReadableStreamDefaultReader<Uint8Array>, decoder: InstanceType<typeof TextDecoder>, seen: string, cap: number): Promise<string> {
  let text = seen;
  while (text.length <= cap) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
  void reader.cancel().catch(() => {});
  return text;
}

/**
 * The problem in an SSE event that is an error, if it is one: `{"error": …}` (OpenAI, DashScope,
 * SGLang, llama.cpp) or vLLM's top-level `{"object": "error", …}`.
 */
function errorFrameIn(event: string): Problem | undefined {
  const data = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (!data.includes('"error"')) return undefined;
  const problem = problemFromBody(200, data);
  if (!problem) return undefined;
  const parsed = JSON.parse(data) as Record<string, unknown>;
  return 'error' in parsed || parsed.object === 'error' ? problem : undefined;
}

/**
 * Passes an SSE body on line by line and fails it with a `ProviderFault` on a line longer than
 * `lineChars`, a body longer than `totalChars`, or a stream that ends without one data frame (an
 * empty body, a lone `[DONE]`). An error frame after the first event is passed on as the stream's
 * last line: failing the stream would make the SDK's pipes drop the text read before it, while the
 * provider turns the frame into an error part `describeModelError` reads by its code.
 *
 * A stream is whole only once its end marker arrived: a finish reason or `[DONE]`. A connection
 * cut before it, or a body that ends cleanly without it, ends the stream the same way, with a frame
 * of Sylvan's own after the lines that did arrive (see `ownFaultFrame`); the partial line is dropped.
 */
export function guardEventStream(
  source: ReadableStream<Uint8Array>,
  limits: StreamLimits = DEFAULT_STREAM_LIMITS,
  attempts = 1,
): ReadableStream<Uint8Array> {
  return guardedBody(source.getReader(), [], limits, attempts);
}

/** `guardEventStream` over a body being read: `replay` (bytes already read from it) first, then the rest. */
function guardedBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  replay: readonly Uint8Array[],
  limits: StreamLimits,
  attempts: number,
): ReadableStream<Uint8Array> {
  const replayed = [...replay];
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  let total = 0;
  let dataFrames = 0;
  let failure: ProviderFault | undefined;
  let sawErrorFrame = false;
  let sawEnd = false;

  const check = (line: string): Problem | undefined => {
    if (!line.startsWith('data:')) return undefined;
    const data = line.slice(5).trim();
    if (data === '[DONE]') sawEnd = true;
    if (data === '' || data === '[DONE]') return undefined;
    dataFrames++;
    if (FINISH_REASON.test(data)) sawEnd = true;
    return errorFrameIn(line);
  };

  /**
   * The complete lines of `pending` that may pass, and the failure they ran into, if any. `added`
   * is what the last chunk appended: only it can hold a new line end (searching all of `pending`
   * again on every chunk of a long line would take time quadratic in its length).
   */
  const takeLines = (final: boolean, added = ''): string => {
    const lastEnd = added.lastIndexOf('\n');
    const end = final ? pending.length : lastEnd < 0 ? 0 : pending.length - added.length + lastEnd + 1;
    const complete = pending.slice(0, end);
    pending = pending.slice(end);
    if (pending.length > limits.lineChars) failure = new ProviderFault(fault('line-too-long'), attempts);
    let out = '';
    for (const line of complete.split('\n')) {
      if (line.length > limits.lineChars) {
        failure = new ProviderFault(fault('line-too-long'), attempts);
        break;
      }
      out += `${line}\n`;
      if (check(line.replace(/\r$/, ''))) {
        sawErrorFrame = true;
        return `${out}\n`;
      }
    }
    return failure ? out : out.slice(0, -1);
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (true) {
          if (sawErrorFrame) {
            void reader.cancel().catch(() => {});
            controller.close();
            return;
          }
          if (failure) {
            void reader.cancel().catch(() => {});
            controller.error(failure);
            return;
          }
          let chunk: Awaited<ReturnType<typeof reader.read>>;
          try {
            chunk = replayed.length > 0 ? { done: false, value: replayed.shift()! } : await reader.read();
          } catch (error) {
            if (!isConnectionCut(error) || dataFrames === 0) {
              controller.error(error);
              return;
            }
            pending = '';
            sawErrorFrame = true;
            controller.enqueue(encoder.encode(`\n\n${ownFaultFrame('cut-mid-answer')}`));
            return;
          }
          if (chunk.done) {
            pending += decoder.decode();
            let out = takeLines(true);
            if (!failure && dataFrames === 0) failure = new ProviderFault(fault('empty-stream'), attempts);
            if (!failure && !sawErrorFrame && !sawEnd) out += `\n\n${ownFaultFrame('ended-mid-answer')}`;
            if (out !== '') controller.enqueue(encoder.encode(out));
            if (failure) {
              // The lines before the failure are read first; the next pull reports it.
              if (out !== '') return;
              continue;
            }
            controller.close();
            return;
          }
          total += chunk.value.byteLength;
          if (total > limits.totalChars) {
            failure = new ProviderFault(fault('too-large'), attempts);
            continue;
          }
          const added = decoder.decode(chunk.value, { stream: true });
          pending += added;
          const out = takeLines(false, added);
          if (out !== '') {
            controller.enqueue(encoder.encode(out));
            return;
          }
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
