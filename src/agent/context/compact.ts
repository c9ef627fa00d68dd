import { streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { COMPACTION_SUMMARY_PREFIX } from '../../shared/compaction-summary.ts';
import { debugDetail, describeModelError } from '../../providers/errors/describe-error.ts';
import { type ProviderContext } from '../../providers/errors/provider-errors.ts';
import { addUsage, emptyUsage, type TokenUsage } from '../../shared/token-usage.ts';
import { tokenUsageOf } from '../../shared/token-usage.ts';
import { declaredOnly } from '../../shared/tool-declarations.ts';

export const SUMMARIZE_REQUEST =
  'Summarize the conversation so far for your own later use: what the user asked, what the tools returned, what you answered, and anything still open. Keep names, numbers, file paths and decisions. Plain text, at most about 300 words.';

export type CompactResult = (
  | { ok: true; messages: ModelMessage[]; summary: string }
  | { ok: false; message: string; debug?: string }
) & {
  /** What the summary request cost, to count in the session's usage. */
  usage: TokenUsage;
};

/**
 * Asks the model for a summary of `messages` and returns the history that replaces them: the
 * summary as a user message (starting with COMPACTION_SUMMARY_PREFIX) and a short assistant
 * acknowledgement — a user/assistant pair, never a system message. Never throws.
 */
export async function compactHistory(options: {
  model: LanguageModel;
  tools: ToolSet;
  instructions: string;
  messages: ModelMessage[];
  /** The user's extra wishes for the summary ("/compact keep the file names"). */
  focus?: string;
  abortSignal: AbortSignal;
  timeoutMs: number;
  maxRetries: number;
  provider: ProviderContext;
}): Promise<CompactResult> {
  const request = options.focus ? `${SUMMARIZE_REQUEST}\nAlso: ${options.focus}` : SUMMARIZE_REQUEST;
  let usage = emptyUsage();
  try {
    // Streamed like every other request: some DashScope models (the thinking ones) answer only streams.
    const result = streamText({
      model: options.model,
      // As the loop declares them: the same JSON Schemas, converted once a session and never run here.
      tools: declaredOnly(options.tools),
      toolChoice: 'none',
      instructions: options.instructions,
      messages: [...options.messages, { role: 'user', content: request }],
      abortSignal: options.abortSignal,
      timeout: { stepMs: options.timeoutMs },
      maxRetries: options.maxRetries,
      onError: () => {},
    });
    let collected = '';
    for await (const part of result.stream) {
      if (part.type === 'text-delta') collected += part.text;
      else if (part.type === 'error') throw part.error;
      else if (part.type === 'abort') throw new Error(String(part.reason ?? 'aborted'));
      else if (part.type === 'finish-step') usage = addUsage(usage, tokenUsageOf(part.usage));
    }
    const text = collected.trim();
    if (text === '') return { ok: false, message: 'The model returned an empty summary; the history was left as it was.', usage };
    const summary = text.startsWith(COMPACTION_SUMMARY_PREFIX) ? text : `${COMPACTION_SUMMARY_PREFIX}:\n${text}`;
    return {
      ok: true,
      usage,
      summary,
      messages: [
        { role: 'user', content: summary },
        { role: 'assistant', content: 'Understood. I will continue from this summary of our earlier conversation.' },
      ],
    };
  } catch (error) {
    if (options.abortSignal.aborted) return { ok: false, message: 'Compaction interrupted; the history was left as it was.', usage };
    return { ok: false, message: `Compaction failed: ${describeModelError(error, { ...options.provider, compacting: true })}`, debug: debugDetail(error), usage };
  }
}
