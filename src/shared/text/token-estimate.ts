import type { ModelMessage } from 'ai';

/** Role, separators and framing every chat message costs on top of its content. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tool call id, tool name framing and JSON structure around a tool call, result or approval. */
const TOOL_PART_OVERHEAD_TOKENS = 8;
/** Images and files are billed by the provider, not by their base64 length; a flat, pessimistic guess. */
export const ATTACHMENT_TOKENS = 1_000;

const OTHER_CHARACTERS_PER_TOKEN = 4;

/**
 * True for code points that tokenizers spend about one token on: CJK ideographs (all extensions),
 * kana, hangul, bopomofo, CJK punctuation and full-width forms.
 */
export function isDenseCodePoint(code: number): boolean {
  return (
    (code >= 0x2e80 && code <= 0x9fff) ||
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0xa960 && code <= 0xa97f) ||
    (code >= 0xac00 && code <= 0xd7ff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xffef) ||
    (code >= 0x20000 && code <= 0x3ffff)
  );
}

/** Counts dense (CJK) and other code points of `text`; shared with the shortening code so both agree. */
export function countCharacters(text: string): { dense: number; other: number } {
  let dense = 0;
  let other = 0;
  for (let index = 0; index < text.length; index++) {
    let code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        index++;
      }
    }
    if (isDenseCodePoint(code)) dense++;
    else other++;
  }
  return { dense, other };
}

/** Tokens for a count of dense and other characters: 1 per dense character, 4 other characters per token. */
export function tokensForCounts(dense: number, other: number): number {
  return dense + Math.ceil(other / OTHER_CHARACTERS_PER_TOKEN);
}

/**
 * Estimates the tokens of plain text: CJK ideographs, kana, hangul and full-width punctuation count
 * one token per character; everything else four characters per token (rounded up). Deliberately a
 * little pessimistic for Qwen-style tokenizers; `TokenCalibration` corrects it from real usage.
 */
export function estimateTextTokens(text: string): number {
  const { dense, other } = countCharacters(text);
  return tokensForCounts(dense, other);
}

/** Estimates a JSON value on its JSON text. Never throws (circular or BigInt values fall back to String()). */
export function estimateJsonTokens(value: unknown): number {
  return estimateTextTokens(safeJsonText(value));
}

function safeJsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/** Estimates a tool result's `output` (without the per-part overhead). Never throws. */
export function estimateToolOutputTokens(output: unknown): number {
  if (!isRecord(output)) return 0;
  switch (output.type) {
    case 'text':
    case 'error-text':
      return typeof output.value === 'string' ? estimateTextTokens(output.value) : 0;
    case 'json':
    case 'error-json':
      return estimateJsonTokens(output.value);
    case 'execution-denied':
      return typeof output.reason === 'string' ? estimateTextTokens(output.reason) : 1;
    case 'content':
      return Array.isArray(output.value) ? sumOf(output.value, estimateContentItemTokens) : 0;
    default:
      return estimateJsonTokens(output);
  }
}

function estimateContentItemTokens(item: unknown): number {
  if (!isRecord(item)) return 0;
  if (item.type === 'text') return typeof item.text === 'string' ? estimateTextTokens(item.text) : 0;
  return ATTACHMENT_TOKENS;
}

function estimatePartTokens(part: unknown): number {
  if (!isRecord(part)) return 0;
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return typeof part.text === 'string' ? estimateTextTokens(part.text) : 0;
    case 'tool-call':
      return TOOL_PART_OVERHEAD_TOKENS + nameTokens(part.toolName) + estimateJsonTokens(part.input);
    case 'tool-result':
      return TOOL_PART_OVERHEAD_TOKENS + nameTokens(part.toolName) + estimateToolOutputTokens(part.output);
    case 'tool-approval-request':
    case 'tool-approval-response':
      return TOOL_PART_OVERHEAD_TOKENS;
    case 'image':
    case 'file':
    case 'reasoning-file':
      return ATTACHMENT_TOKENS;
    default:
      return estimateJsonTokens(part);
  }
}

function nameTokens(name: unknown): number {
  return typeof name === 'string' ? estimateTextTokens(name) : 0;
}

function computeMessageTokens(message: ModelMessage): number {
  const content: unknown = message.content;
  if (typeof content === 'string') return MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(content);
  if (Array.isArray(content)) return MESSAGE_OVERHEAD_TOKENS + sumOf(content, estimatePartTokens);
  return MESSAGE_OVERHEAD_TOKENS;
}

const messageTokenCache = new WeakMap<object, number>();

/**
 * Estimates one message: its text (or parts) plus a per-message overhead and a per tool call/result
 * overhead; tool inputs and JSON outputs count on their JSON text. Cached per message object, so
 * messages must not be mutated once estimated (the history treats them as immutable). Never throws.
 */
export function estimateMessageTokens(message: ModelMessage): number {
  if (typeof message !== 'object' || message === null) return MESSAGE_OVERHEAD_TOKENS;
  const cached = messageTokenCache.get(message);
  if (cached !== undefined) return cached;
  const tokens = computeMessageTokens(message);
  messageTokenCache.set(message, tokens);
  return tokens;
}

/** Options for `TokenCalibration`. */
export interface TokenCalibrationOptions {
  /** Lowest ratio the calibration will apply (default 0.5). */
  minRatio?: number;
  /** Highest ratio the calibration will apply (default 2). */
  maxRatio?: number;
  /** Weight of a new observation, 0..1 (default 0.5): higher follows the latest request more closely. */
  smoothing?: number;
}

/** Observations of prompts smaller than this are dominated by rounding and framing noise. */
const MIN_OBSERVED_TOKENS = 50;

/**
 * Learns how far the estimate is from the provider's tokenizer: after each request, `observe` the
 * estimated prompt size and the provider-reported input tokens; `apply` scales later estimates by a
 * smoothed ratio, clamped to [minRatio, maxRatio] so one odd report cannot wreck the fitting.
 */
export class TokenCalibration {
  readonly #minRatio: number;
  readonly #maxRatio: number;
  readonly #smoothing: number;
  #ratio = 1;
  #observations = 0;

  constructor(options: TokenCalibrationOptions = {}) {
    this.#minRatio = options.minRatio ?? 0.5;
    this.#maxRatio = options.maxRatio ?? 2;
    this.#smoothing = Math.min(1, Math.max(0, options.smoothing ?? 0.5));
  }

  /** The current reported/estimated ratio (1 until a usable observation arrives). */
  get ratio(): number {
    return this.#ratio;
  }

  /** How many observations have been used. */
  get observations(): number {
    return this.#observations;
  }

  /** Records one request; ignores missing, non-finite, non-positive or tiny values. Never throws. */
  observe(estimatedPromptTokens: number, reportedInputTokens: number | undefined): void {
    if (reportedInputTokens === undefined) return;
    if (!Number.isFinite(estimatedPromptTokens) || !Number.isFinite(reportedInputTokens)) return;
    if (estimatedPromptTokens < MIN_OBSERVED_TOKENS || reportedInputTokens <= 0) return;
    const observed = this.#clamp(reportedInputTokens / estimatedPromptTokens);
    this.#ratio = this.#observations === 0 ? observed : this.#ratio + this.#smoothing * (observed - this.#ratio);
    this.#observations++;
  }

  /** Scales an estimate by the learned ratio (rounded up). */
  apply(estimate: number): number {
    return Math.ceil(estimate * this.#ratio);
  }

  #clamp(ratio: number): number {
    return Math.min(this.#maxRatio, Math.max(this.#minRatio, ratio));
  }
}

function sumOf(items: readonly unknown[], measure: (item: unknown) => number): number {
  let total = 0;
  for (const item of items) total += measure(item);
  return total;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
